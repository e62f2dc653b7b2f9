import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from '@haven/kit/testing';
import { startTestGateway } from '@haven/gateway/testing';
import type { RunningGateway } from '@haven/gateway/start';
import { startEveryService } from './support/stack';

const SCHEMAS = ['auth', 'thoughts', 'insights', 'assistant', 'integrations', 'portability'];
const ME = 4242;

/**
 * Cross-site request forgery at the gateway: what a page of another site can make a signed-in
 * browser send (an HTML form, a "simple" fetch with text/plain, any request from a foreign Origin or
 * marked `Sec-Fetch-Site: cross-site`) is refused before it reaches a service, with nothing written;
 * the app's own requests, and the providers' OAuth callbacks (top-level GETs), still go through.
 */
describe('cross-site requests at the gateway', () => {
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  let gateway: RunningGateway;
  let cookie = '';

  beforeAll(async () => {
    everything = await startEveryService();
    gateway = await startTestGateway(everything.stack.config, everything.stack.urls(), 'http://127.0.0.1:9');
    cookie = await sessionCookie(everything.stack.config, ME);
  });
  afterAll(async () => {
    await gateway?.close();
    await everything?.stop();
  });

  /** Every row of the user in every table of every service, and their unsent events. */
  async function rowsOfMe(): Promise<number> {
    const db = everything.stack.get('auth').deps.db;
    const tables = (await db.execute(sql`
      select table_schema, table_name from information_schema.columns
      where column_name = 'user_id' and table_schema in (${sql.join(
        SCHEMAS.map((s) => sql`${s}`),
        sql`, `,
      )})`)) as unknown as { rows: Array<{ table_schema: string; table_name: string }> };
    let total = 0;
    for (const { table_schema, table_name } of tables.rows) {
      const counted = (await db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table_schema)}.${sql.identifier(table_name)} where user_id = ${ME}`,
      )) as unknown as { rows: Array<{ n: number }> };
      total += counted.rows[0]!.n;
    }
    return total;
  }

  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    fetch(gateway.url + path, { method, headers: { cookie, ...headers }, body, redirect: 'manual' });
  const json = { 'content-type': 'application/json' };
  const conversation = JSON.stringify({ title: 'Forged', content: 'Send my thoughts away' });

  it('refuses forms, text/plain and foreign origins with 403/415 JSON, and nothing is written', async () => {
    // Made without a first message, so no reply is written while the forged requests are counted.
    const own = await send(
      'POST',
      '/api/conversations',
      { ...json, origin: gateway.url },
      '{"title":"Mine"}',
    );
    expect(own.status).toBe(201);
    const { id } = (await own.json()) as { id: number };
    const before = await rowsOfMe();
    const foreign = { origin: 'https://evil.example' };
    const attempts: Array<[string, string, Record<string, string>, string | undefined, number]> = [
      // An HTML form and a no-cors fetch cannot send JSON: their types are refused whatever the origin.
      ['POST', '/api/conversations', { 'content-type': 'text/plain;charset=UTF-8' }, conversation, 415],
      ['POST', '/api/conversations', { 'content-type': 'application/x-www-form-urlencoded' }, 'title=x', 415],
      ['POST', '/api/conversations', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--', 415],
      ['POST', '/api/conversations', {}, conversation, 415],
      ['POST', '/api/account/export', { 'content-type': 'application/x-www-form-urlencoded' }, '', 415],
      ['POST', '/api/account/import', { 'content-type': 'text/plain' }, 'PK', 415],
      // JSON, or no body at all, from a page of another site, or one a browser marks cross-site.
      ['POST', '/api/conversations', { ...json, ...foreign }, conversation, 403],
      ['POST', '/api/conversations', { ...json, origin: 'null' }, conversation, 403],
      ['POST', '/api/conversations', { ...json, 'sec-fetch-site': 'cross-site' }, conversation, 403],
      [
        'POST',
        '/api/conversations',
        { ...json, origin: 'http://evil.haven.test', 'sec-fetch-site': 'same-site' },
        conversation,
        403,
      ],
      ['POST', '/api/account/export', foreign, undefined, 403],
      ['POST', '/api/logout', { 'sec-fetch-site': 'cross-site' }, undefined, 403],
      ['DELETE', `/api/conversations/${id}`, foreign, undefined, 403],
      ['PATCH', '/api/user-preferences', { ...json, ...foreign }, '{"includeThoughtContent":false}', 403],
    ];
    for (const [method, path, headers, body, status] of attempts) {
      const res = await send(method, path, headers, body);
      const label = `${method} ${path} ${JSON.stringify(headers)}`;
      expect(res.status, label).toBe(status);
      expect(res.headers.get('content-type'), label).toMatch(/^application\/json/);
      expect(await res.json(), label).toMatchObject({
        code: status === 403 ? 'forbidden' : 'unsupported_media_type',
        message: expect.stringMatching(
          status === 403 ? /other sites/ : /Content-Type: application\/(json|zip)/,
        ),
      });
    }
    expect(await rowsOfMe()).toBe(before);
    // The forged logout left the session alone, and the forged delete the conversation.
    expect((await send('GET', `/api/conversations/${id}`, {})).status).toBe(200);
  });

  it("lets the app's own requests through: its host, APP_URL, same-origin, no body, the import's zip", async () => {
    const passed = [
      await send('POST', '/api/conversations', { ...json, origin: gateway.url }, conversation),
      await send('POST', '/api/conversations', { ...json, origin: 'http://haven.test' }, conversation),
      await send('POST', '/api/conversations', { ...json, 'sec-fetch-site': 'same-origin' }, conversation),
      await send(
        'POST',
        '/api/conversations',
        { ...json, origin: 'http://haven.test', 'sec-fetch-site': 'same-site' },
        conversation,
      ),
    ];
    expect(passed.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    // A POST without a body needs no type; the import's zip reaches the portability service (which
    // finds these bytes are not a zip it can read, later, in its worker).
    expect((await send('POST', '/api/account/export', { origin: gateway.url })).status).toBe(202);
    const zip = await send('POST', '/api/account/import', { 'content-type': 'application/zip' }, 'PK');
    expect(zip.status).toBe(202);
  });

  it("keeps the providers' OAuth callbacks working: a cross-site top-level GET", async () => {
    const res = await send('GET', '/api/auth/google/callback?code=x&state=y', {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/\/integrations\?integration=error/);
  });
});
