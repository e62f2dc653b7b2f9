import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authService } from '@haven/auth/service';
import { createLogger } from '@haven/kit/logger';
import { startTestService, testConfig } from '@haven/kit/testing';
import { startGateway, type RunningGateway } from '../src/start';
import { startTestGateway } from '../src/testing';

/** What a raw client sees on a socket it keeps open: the answer's first line, or that it was cut. */
function rawRequest(port: number, lines: string, waitMs: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(lines));
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    const done = (why: string) => resolve(data ? data.split('\r\n')[0]! : why);
    socket.on('close', () => done('closed'));
    setTimeout(() => {
      socket.destroy();
      done('still open');
    }, waitMs);
  });
}

/** Stands for a built script: its compressed copies differ from it, so the test can tell which came. */
const BIG_SCRIPT = 'console.log(1)';

describe('the gateway under hostile input', () => {
  let auth: Awaited<ReturnType<typeof startTestService>>;
  let gateway: RunningGateway;
  let proxied: RunningGateway;
  const staticDir = mkdtempSync(path.join(tmpdir(), 'haven-spa-'));

  beforeAll(async () => {
    mkdirSync(path.join(staticDir, 'assets'));
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Haven</title>');
    writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    // The build writes a Brotli and a gzip copy beside each script (vite-plugin-compression2).
    writeFileSync(path.join(staticDir, 'assets', 'app.js.br'), brotliCompressSync(BIG_SCRIPT));
    writeFileSync(path.join(staticDir, 'assets', 'app.js.gz'), gzipSync(BIG_SCRIPT));
    auth = await startTestService(authService);
    const services = {
      auth: auth.url,
      thoughts: auth.url,
      insights: auth.url,
      assistant: auth.url,
      integrations: auth.url,
      portability: auth.url,
    };
    const log = createLogger({ name: 'gateway', level: 'silent' });
    gateway = await startGateway({
      config: { ...auth.config, HOST: '127.0.0.1' },
      services,
      port: 0,
      staticDir,
      log,
      timeouts: { headersMs: 1000, requestMs: 1500 },
    });
    proxied = await startGateway({
      config: { ...auth.config, TRUST_PROXY: 'loopback' },
      services,
      port: 0,
      host: '127.0.0.1',
      log,
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await proxied?.close();
    await auth?.stop();
    rmSync(staticDir, { recursive: true, force: true });
  });

  it('answers a missing asset with a JSON 404, never a 500', async () => {
    expect((await fetch(`${gateway.url}/assets/app.js`)).status).toBe(200);
    for (const p of [
      '/assets/x.js',
      '/assets/%2fetc%2fpasswd',
      '/assets/%E0%A4%A.js',
      `/assets/${'a'.repeat(5000)}.js`,
    ]) {
      const res = await fetch(gateway.url + p);
      expect(res.status, p.slice(0, 40)).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it("sends the build's Brotli or gzip copy of an asset to a browser that takes it", async () => {
    const asked = async (acceptEncoding: string) => {
      const res = await fetch(`${gateway.url}/assets/app.js`, {
        headers: { 'accept-encoding': acceptEncoding },
      });
      // fetch decodes the body; its length header is that of the bytes that crossed the network.
      return {
        coding: res.headers.get('content-encoding'),
        length: Number(res.headers.get('content-length')),
        vary: res.headers.get('vary'),
        type: res.headers.get('content-type'),
        body: await res.text(),
      };
    };
    const br = await asked('gzip, deflate, br, zstd');
    expect(br).toMatchObject({
      coding: 'br',
      body: BIG_SCRIPT,
      type: expect.stringMatching(/^text\/javascript/),
    });
    expect(br.length).toBe(brotliCompressSync(BIG_SCRIPT).length);
    expect(br.vary).toContain('Accept-Encoding');
    expect(await asked('gzip')).toMatchObject({
      coding: 'gzip',
      body: BIG_SCRIPT,
      length: gzipSync(BIG_SCRIPT).length,
    });
    expect(await asked('identity')).toMatchObject({
      coding: null,
      body: BIG_SCRIPT,
      length: BIG_SCRIPT.length,
    });
  });

  it('treats a session cookie with broken %-encoding as no session, on every route', async () => {
    for (const value of ['%', '%E0%A4%A']) {
      const cookie = `haven_session=${value}`;
      expect((await fetch(`${gateway.url}/api/user-preferences`, { headers: { cookie } })).status).toBe(401);
      const pub = await fetch(`${gateway.url}/api/logout`, { method: 'POST', headers: { cookie } });
      expect(pub.status).toBe(200);
    }
  });

  it('cuts headers that never finish, and bodies that never arrive', async () => {
    const half = await rawRequest(gateway.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ', 5000);
    expect(half).toMatch(/^HTTP\/1\.1 408|closed/);
    const noBody = await rawRequest(
      gateway.port,
      'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      5000,
    );
    expect(noBody).toMatch(/^HTTP\/1\.1 (408|400)|closed/);
  });

  it('trusts X-Forwarded-For only from a configured proxy', async () => {
    // Five wrong logins from "different addresses": without trust they all count against one address.
    const login = (g: RunningGateway, ip: string) =>
      fetch(`${g.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
      });
    const { createRedis, connectRedis } = await import('@haven/kit/redis');
    const { rateLimitKey } = await import('@haven/kit/rate-limit');
    const counted = (ip: string) => rateLimitKey(auth.config.REDIS_PREFIX, { name: 'login-ip', key: ip });
    const redis = createRedis(auth.config.REDIS_URL);
    await connectRedis(redis, auth.config.REDIS_URL);
    try {
      const keys = async () => (await redis.keys(`${auth.config.REDIS_PREFIX}:rl:login-ip:*`)).sort();
      await login(gateway, '1.2.3.4');
      await login(gateway, '5.6.7.8');
      expect(await keys()).toContain(counted('127.0.0.1'));
      expect((await keys()).filter((k) => k === counted('1.2.3.4') || k === counted('5.6.7.8'))).toEqual([]);
      await login(proxied, '9.9.9.9');
      expect(await keys()).toContain(counted('9.9.9.9'));
    } finally {
      redis.disconnect();
    }
  });
});

describe('the client address a service is told', () => {
  it('is the socket address unless TRUST_PROXY names the hop that sent X-Forwarded-For', async () => {
    // A stand-in service that reports the headers it got.
    const service = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.headers));
    }).listen(0, '127.0.0.1');
    await once(service, 'listening');
    const url = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    const seenBy = async (trustProxy: string | undefined) => {
      const gateway = await startTestGateway(testConfig({ TRUST_PROXY: trustProxy }), {}, url);
      try {
        // A public route, so no session is needed to reach the service.
        const res = await fetch(`${gateway.url}/api/login`, {
          method: 'POST',
          headers: { 'x-forwarded-for': '1.2.3.4', 'x-client-ip': '5.6.7.8' },
        });
        return ((await res.json()) as IncomingHttpHeaders)['x-client-ip'];
      } finally {
        await gateway.close();
      }
    };
    try {
      expect(await seenBy(undefined)).toBe('127.0.0.1');
      expect(await seenBy('loopback')).toBe('1.2.3.4');
      expect(await seenBy('10.0.0.0/8')).toBe('127.0.0.1');
    } finally {
      service.close();
    }
  });
});
