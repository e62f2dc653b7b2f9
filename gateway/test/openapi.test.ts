import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicRoutes } from '@haven/contracts/public';
import { openApiPath } from '@haven/contracts/openapi';
import { testConfig } from '@haven/kit/testing';
import { startTestGateway } from '../src/testing';
import type { RunningGateway } from '../src/start';

type Operation = {
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters: Array<{ name: string; in: string }>;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
};

/** The OpenAPI document and API reference the gateway serves from the contracts. */
describe('OpenAPI document and API reference', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    // No service is needed: the gateway answers these itself.
    gateway = await startTestGateway(testConfig(), {}, 'http://127.0.0.1:9');
  });
  afterAll(() => gateway?.close());

  it('is a valid OpenAPI 3.1 document listing every public route with its schemas and error answers', async () => {
    const res = await fetch(`${gateway.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result).toMatchObject({ valid: true });

    const routes = publicRoutes();
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      const where = `${route.method} ${route.path}`;
      const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      expect(op, where).toBeDefined();
      if (route.body) expect(op!.requestBody?.content['application/json']?.schema, where).toBeDefined();
      for (const name of [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]))
        expect(op!.parameters, where).toContainEqual(expect.objectContaining({ name, in: 'path' }));
      // Every declared answer, errors included, by status; error answers carry the shared Error body.
      expect(Object.keys(op!.responses).sort(), where).toEqual(Object.keys(route.responses).sort());
      for (const status of Object.keys(route.responses).filter((s) => Number(s) >= 400))
        expect(op!.responses[status]!.content?.['application/json']?.schema, `${where} ${status}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
    }
    // A signed-in route needs the session; sign-in itself does not.
    expect(doc.paths['/api/thoughts']!.post!.security).toBeUndefined();
    expect(doc.paths['/api/login']!.post!.security).toEqual([]);
    expect(JSON.stringify(doc)).toContain('"validation_failed"');
  });

  it('serves the API reference page and its files from the gateway itself', async () => {
    const page = await fetch(`${gateway.url}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBe(3);
    for (const source of sources) {
      expect(source, 'no CDN').toMatch(/^\/api\/docs\//);
      expect((await fetch(gateway.url + source)).status, source).toBe(200);
    }
    // The gateway's own policy applies: scripts from itself only.
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});
