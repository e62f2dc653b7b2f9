import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { HttpError, ResponseValidationError, callRoute, createInternalClient } from './client';
import { defineContract } from './contract';
import { type ErrorBody } from './errors';
import { thoughtsInternalContract } from './internal';
import { thoughtsContract, type Thought } from './thoughts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const thought: Thought = {
  id: 7,
  content: 'walked by the river',
  date: '2025-01-05T09:30:00.000Z',
  localDate: '2025-01-05',
  tags: ['walk'],
  isVoice: false,
  category: 'personal',
  timezoneOffset: null,
  hasAudio: false,
  format: 'text',
};

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];

/** Answers by path, echoing what it received for the assertions. */
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0];
      const send = (status: number, payload: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      if (path === '/api/thoughts/7' && req.method === 'PATCH')
        send(200, { ...thought, ...JSON.parse(body) });
      else if (path === '/api/thoughts/404') send(404, { message: 'Thought not found', code: 'not_found' });
      else if (path === '/api/thoughts/range' || path === '/internal/thoughts/search')
        send(200, [thought, { ...thought, id: 8, userId: 99 }]);
      else if (path === '/api/thoughts/ids') send(200, [{ id: 'not a thought' }]);
      else if (path === '/teapot') send(418, "I'm a teapot", 'text/plain');
      else if (path === '/empty') send(503, '');
      else send(500, { message: 'unexpected' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
});

const last = (): Seen => {
  const s = seen.at(-1);
  if (!s) throw new Error('no request seen');
  return s;
};

describe('callRoute', () => {
  it('fills params, sends JSON and parses the 200 body', async () => {
    const res = await callRoute(thoughtsContract.update, {
      baseUrl,
      params: { id: 7 },
      body: { tags: ['walk', 'river'] },
    });
    expect(last().method).toBe('PATCH');
    expect(last().url).toBe('/api/thoughts/7');
    expect(last().headers['content-type']).toBe('application/json');
    expect(JSON.parse(last().body)).toEqual({ tags: ['walk', 'river'] });
    expect(res.status).toBe(200);
    if (res.status === 200) {
      expectTypeOf(res.body).toEqualTypeOf<Thought>();
      expect(res.body.tags).toEqual(['walk', 'river']);
    }
  });

  it('encodes params', async () => {
    const route = defineContract({
      r: {
        method: 'GET',
        path: '/teapot/:name',
        params: z.object({ name: z.string() }),
        responses: { 200: z.null() },
      },
    }).r;
    await expect(callRoute(route, { baseUrl, params: { name: 'a b/c' } })).rejects.toThrow();
    expect(last().url).toBe('/teapot/a%20b%2Fc');
  });

  it('serialises the query, skipping undefined, and sends no body or content type on GET', async () => {
    const res = await callRoute(thoughtsContract.range, {
      baseUrl,
      query: { startDate: '2025-01-01', endDate: '2025-01-31', start: undefined, t: 17 },
    });
    expect(last().url).toBe('/api/thoughts/range?startDate=2025-01-01&endDate=2025-01-31&t=17');
    expect(last().headers['content-type']).toBeUndefined();
    expect(last().body).toBe('');
    // Keys the contract does not list (here userId) are dropped by the parse.
    expect(res).toEqual({ status: 200, body: [thought, { ...thought, id: 8 }] });
  });

  it('returns a declared error status with its parsed body', async () => {
    const res = await callRoute(thoughtsContract.remove, { baseUrl, params: { id: 404 } });
    expect(res).toEqual({ status: 404, body: { message: 'Thought not found', code: 'not_found' } });
    if (res.status === 404) expectTypeOf(res.body).toEqualTypeOf<ErrorBody>();
  });

  it('throws HttpError with status and text on an undeclared status', async () => {
    const route = defineContract({ r: { method: 'GET', path: '/teapot', responses: { 200: z.null() } } }).r;
    const err: unknown = await callRoute(route, { baseUrl }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 418, text: "I'm a teapot", message: "418: I'm a teapot" });

    const empty = defineContract({ r: { method: 'GET', path: '/empty', responses: { 200: z.null() } } }).r;
    await expect(callRoute(empty, { baseUrl })).rejects.toMatchObject({
      status: 503,
      message: '503: Service Unavailable',
    });
  });

  it('throws ResponseValidationError when a declared answer breaks its schema', async () => {
    await expect(callRoute(thoughtsContract.byIds, { baseUrl, query: { ids: '1' } })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
  });
});

describe('createInternalClient', () => {
  it('calls each route with fresh headers from the factory', async () => {
    let n = 0;
    const client = createInternalClient(thoughtsInternalContract, {
      baseUrl,
      headers: () => ({ 'x-internal-token': `token-${++n}` }),
    });
    const res = await client.search({ query: { q: 'river walk', limit: 5 } });
    expect(last().url).toBe('/internal/thoughts/search?q=river+walk&limit=5');
    expect(last().headers['x-internal-token']).toBe('token-1');
    expect(res.body).toEqual([thought, { ...thought, id: 8 }]);
    expectTypeOf(res.body).toEqualTypeOf<Thought[]>();

    await client.search({ query: { q: 'x' }, headers: { 'x-request-id': 'r1' } });
    expect(last().headers['x-internal-token']).toBe('token-2');
    expect(last().headers['x-request-id']).toBe('r1');
  });
});

describe('types', () => {
  it('demand what each route needs (checked by tsc, never run)', () => {
    const check = () => {
      // @ts-expect-error the day query is required
      void callRoute(thoughtsContract.byDay, { baseUrl });
      // @ts-expect-error path params are required
      void callRoute(thoughtsContract.update, { baseUrl, body: { content: 'x' } });
      // @ts-expect-error content must be a string
      void callRoute(thoughtsContract.create, { baseUrl, body: { content: 1 } });
      // @ts-expect-error GET /api/thoughts/all takes no body
      void callRoute(thoughtsContract.all, { baseUrl, body: { x: 1 } });
      void callRoute(thoughtsContract.all, { baseUrl });
      void createInternalClient(thoughtsInternalContract, { baseUrl, headers: () => ({}) }).range({
        query: { start: '2025-01-01', end: '2025-01-02' },
      });
    };
    expect(check).toBeTypeOf('function');
  });
});
