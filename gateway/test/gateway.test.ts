import { createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@haven/contracts/routes';
import { authService } from '@haven/auth/service';
import { signInternalToken } from '@haven/kit/internal-auth';
import { createLogger } from '@haven/kit/logger';
import { connectRedis, createRedis, type Redis } from '@haven/kit/redis';
import { createSessionStore, type SessionStore } from '@haven/kit/sessions';
import { internalHeaders, startTestService } from '@haven/kit/testing';
import { startGateway, type RunningGateway } from '../src/start';
import { startTestGateway } from '../src/testing';

const OPERATOR_TOKEN = 'operator-token-0123456789-abcdefghijklmnop';

describe('gateway', () => {
  let auth: Awaited<ReturnType<typeof startTestService>>;
  let gateway: RunningGateway;
  let redis: Redis;
  let sessions: SessionStore;
  const authLog: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) authLog.push(JSON.parse(line));
        done();
      },
    });
    auth = await startTestService(
      authService,
      { LOG_LEVEL: 'info' },
      { log: createLogger({ name: 'auth', destination }) },
    );
    const unreachable = 'http://127.0.0.1:9';
    gateway = await startGateway({
      config: { ...auth.config, OPERATOR_TOKEN },
      services: {
        auth: auth.url,
        thoughts: unreachable,
        insights: unreachable,
        assistant: unreachable,
        integrations: unreachable,
        portability: unreachable,
      },
      port: 0,
      host: '127.0.0.1',
      log: createLogger({ name: 'gateway', level: 'silent' }),
    });
    redis = createRedis(auth.config.REDIS_URL);
    await connectRedis(redis, auth.config.REDIS_URL);
    sessions = createSessionStore(redis, {
      prefix: auth.config.REDIS_PREFIX,
      jwtSecret: auth.config.JWT_SECRET!,
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await auth?.stop();
    redis?.disconnect();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(gateway.url + path, { headers });
  const cookieFor = async (userId: number) => `${SESSION_COOKIE}=${(await sessions.create(userId)).token}`;

  it('answers 401 JSON to a protected route without a cookie', async () => {
    const res = await get('/api/user-preferences');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toMatchObject({ message: 'Not signed in' });
  });

  it('forwards a signed-in user to the owning service', async () => {
    const res = await get('/api/user-preferences', { cookie: await cookieFor(11) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      askBeforeCalendarEvents: true,
      askBeforeEmails: true,
      includeThoughtContent: true,
    });
  });

  it('ignores identity headers a client forges', async () => {
    // User 21 turns a flag off; user 22 then forges headers claiming to be 21.
    const cookie21 = await cookieFor(21);
    const patch = await fetch(gateway.url + '/api/user-preferences', {
      method: 'PATCH',
      headers: { cookie: cookie21, 'content-type': 'application/json' },
      body: JSON.stringify({ askBeforeEmails: false }),
    });
    expect(patch.status).toBe(200);

    const forgedToken = signInternalToken(auth.config.INTERNAL_SECRET, {
      userId: 21,
      caller: 'gateway',
      audience: 'auth',
    });
    const asOther = await get('/api/user-preferences', {
      cookie: await cookieFor(22),
      'x-user-id': '21',
      'x-internal-token': forgedToken,
    });
    expect(await asOther.json()).toMatchObject({ askBeforeEmails: true });

    // Without a cookie, not even a validly signed internal token from the client gets through.
    const noCookie = await get('/api/user-preferences', {
      'x-user-id': '21',
      'x-internal-token': forgedToken,
    });
    expect(noCookie.status).toBe(401);
  });

  it('refuses an expired, tampered, foreign-signed or revoked session with 401', async () => {
    const { token, sessionId } = await sessions.create(31);
    const expired = jwt.sign(
      { sid: sessionId, exp: Math.floor(Date.now() / 1000) - 10 },
      auth.config.JWT_SECRET!,
      {
        subject: '31',
      },
    );
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: '32' })).toString('base64url')}.${s}`;
    const foreign = jwt.sign({ sid: sessionId }, 'x'.repeat(40), { subject: '31' });
    for (const bad of [expired, tampered, foreign, 'not-a-jwt']) {
      const res = await get('/api/user-preferences', { cookie: `${SESSION_COOKIE}=${bad}` });
      expect(res.status).toBe(401);
      expect((await res.json()).message).toBe('Your session has expired. Please log in again.');
    }
    expect((await get('/api/user-preferences', { cookie: `${SESSION_COOKIE}=${token}` })).status).toBe(200);
    await sessions.revoke(sessionId);
    expect((await get('/api/user-preferences', { cookie: `${SESSION_COOKIE}=${token}` })).status).toBe(401);
  });

  it('lets public routes through without a cookie', async () => {
    const datetime = await get('/api/debug/datetime');
    expect(datetime.status).toBe(200);
    const body = (await datetime.json()) as { isoString: string; components: Record<string, number> };
    expect(new Date(body.isoString).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(body.components).toMatchObject({ year: expect.any(Number), timezoneOffset: expect.any(Number) });
    // Reaches the auth service (its own JSON answer), not the gateway's 401.
    const login = await fetch(gateway.url + '/api/login', { method: 'POST' });
    // The service's own validation answer: a 502 or the gateway's 401 would fail here.
    expect(login.status).toBe(400);
    expect(await login.json()).toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/^Invalid body/),
    });
  });

  it('answers 404 JSON for an unknown /api path, signed in or not', async () => {
    for (const headers of [{}, { cookie: await cookieFor(41) }] as Array<Record<string, string>>) {
      const res = await get('/api/nothing-here', headers);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({
        message: 'No route for GET /api/nothing-here',
        code: 'not_found',
      });
    }
    // Prefixes match whole segments: /api/users is not /api/user.
    expect((await get('/api/users')).status).toBe(404);
  });

  it('answers 502 JSON when the owning service is down', async () => {
    const res = await get('/api/thoughts/all', { cookie: await cookieFor(51) });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ message: 'The thoughts service is unavailable' });
  });

  it('refuses a body over the limit with 413 before proxying', async () => {
    const res = await fetch(gateway.url + '/api/user-preferences', {
      method: 'PATCH',
      headers: {
        cookie: await cookieFor(61),
        'content-type': 'application/json',
        'content-length': String(16 * 1024 * 1024),
      },
      body: 'x'.repeat(16 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
  });

  it('carries one request id from the gateway into the service log', async () => {
    const res = await get('/api/user-preferences', {
      cookie: await cookieFor(71),
      'x-request-id': 'client-chosen',
    });
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const line = authLog.find((l) => l.reqId === requestId && l.msg === 'request');
    expect(line).toMatchObject({ method: 'GET', path: '/api/user-preferences', status: 200 });
  });

  it('gzips large proxied answers for clients that accept it, and leaves small ones alone', async () => {
    // A stand-in service answering 20 KB of JSON, behind a gateway of its own.
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, content: 'the same words again' }))),
      );
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const other = await startTestGateway(auth.config, { thoughts: upstreamUrl }, auth.url);
    try {
      const cookie = await cookieFor(81);
      const raw = (path: string, encoding?: string) =>
        new Promise<{ encoding?: string; bytes: number }>((resolve, reject) => {
          // fetch would decompress: read the answer as it travels.
          httpGet(
            new URL(path, other.url),
            { headers: { cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) } },
            (res) => {
              let bytes = 0;
              res.on('data', (c: Buffer) => (bytes += c.length));
              res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes }));
            },
          ).on('error', reject);
        });
      const gzipped = await raw('/api/thoughts/all', 'gzip');
      const plain = await raw('/api/thoughts/all');
      expect(gzipped.encoding).toBe('gzip');
      expect(plain.encoding).toBeUndefined();
      expect(gzipped.bytes).toBeLessThan(plain.bytes / 10);
      expect((await raw('/api/user-preferences', 'gzip')).encoding).toBeUndefined();
    } finally {
      await other.close();
      upstream.close();
    }
  });

  it('sets security headers and a fresh request id on every kind of answer', async () => {
    const answers = [
      await get('/healthz'),
      await get('/api/nothing-here'),
      await get('/api/user-preferences'),
      await get('/api/user-preferences', { cookie: await cookieFor(91) }),
      await get('/api/thoughts/all', { cookie: await cookieFor(91) }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 401, 200, 502]);
    const ids = new Set<string | null>();
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-powered-by')).toBeNull();
      ids.add(res.headers.get('x-request-id'));
    }
    expect([...ids].every((id) => /^[0-9a-f-]{36}$/.test(id ?? ''))).toBe(true);
    expect(ids.size).toBe(answers.length);
  });

  it('reports readiness of every service, naming the ones that are down to the operator only', async () => {
    const res = await get('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not_ready' });
    const told = await get('/readyz', { authorization: `Bearer ${OPERATOR_TOKEN}` });
    expect(told.status).toBe(503);
    const body = (await told.json()) as { checks: Record<string, string> };
    expect(body.checks).toMatchObject({ redis: 'ok', auth: 'ok' });
    expect(body.checks.thoughts).not.toBe('ok');
  });
});

describe('a service reached directly', () => {
  let auth: Awaited<ReturnType<typeof startTestService>>;
  beforeAll(async () => {
    auth = await startTestService(authService);
  });
  afterAll(async () => auth?.stop());

  it('refuses a request without a valid internal token', async () => {
    const none = await fetch(auth.url + '/api/user-preferences', { headers: { 'x-user-id': '1' } });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ message: 'Missing internal token' });

    const forged = signInternalToken('f'.repeat(40), { userId: 1, caller: 'gateway', audience: 'auth' });
    const bad = await fetch(auth.url + '/api/user-preferences', { headers: { 'x-internal-token': forged } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ message: 'Invalid internal token' });

    // A genuine token addressed to another service is refused here.
    const elsewhere = await fetch(auth.url + '/api/user-preferences', {
      headers: internalHeaders(auth.config, 1, 'thoughts'),
    });
    expect(elsewhere.status).toBe(401);
    // A service may not call a public route on a user's behalf: only the gateway may.
    const fromService = await fetch(auth.url + '/api/user-preferences', {
      headers: internalHeaders(auth.config, 1, 'auth', 'insights'),
    });
    expect(fromService.status).toBe(403);

    const good = await fetch(auth.url + '/api/user-preferences', {
      headers: internalHeaders(auth.config, 1, 'auth'),
    });
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ askBeforeEmails: true, includeThoughtContent: true });
  });

  it('answers health without a token, and readiness with its checks', async () => {
    expect((await fetch(auth.url + '/healthz')).status).toBe(200);
    const ready = await fetch(auth.url + '/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
  });

  it('answers bad input with 400 naming the problem, and writes nothing', async () => {
    const headers = { ...internalHeaders(auth.config, 2, 'auth'), 'content-type': 'application/json' };
    const malformed = await fetch(auth.url + '/api/user-preferences', {
      method: 'PATCH',
      headers,
      body: '{"askBeforeEmails":',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ message: 'Malformed JSON body' });

    const wrongType = await fetch(auth.url + '/api/user-preferences', {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ askBeforeEmails: 'no' }),
    });
    expect(wrongType.status).toBe(400);
    const body = (await wrongType.json()) as { message: string; issues: Array<{ path: string[] }> };
    expect(body.message).toMatch(/^Invalid body: askBeforeEmails: /);
    expect(body.issues[0]?.path).toEqual(['askBeforeEmails']);

    const prefs = await fetch(auth.url + '/api/user-preferences', {
      headers: internalHeaders(auth.config, 2, 'auth'),
    });
    expect(await prefs.json()).toMatchObject({ askBeforeEmails: true });
  });
});
