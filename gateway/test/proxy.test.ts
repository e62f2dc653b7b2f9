import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import jwt from 'jsonwebtoken';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@haven/kit/logger';
import { createServiceProxy, requestHeaders, type Forwarding } from '../src/proxy';

const SECRET = randomBytes(32).toString('hex');
const HEAD = ['x-frame-options', 'DENY', 'x-request-id', 'req-1'];
const FORWARDING: Forwarding = { userId: 7, requestId: 'req-1', clientIp: '203.0.113.9', head: HEAD };

async function listen(handler: http.RequestListener): Promise<{ server: Server; url: string }> {
  const server = http.createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A raw HTTP/1.1 exchange, so the test controls framing (chunked bodies, early closes). */
function rawExchange(url: string, request: (socket: Socket) => void) {
  const { hostname, port } = new URL(url);
  return new Promise<string>((resolve) => {
    const socket = new Socket();
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', () => {});
    socket.connect(Number(port), hostname, () => request(socket));
  });
}

describe('the service proxy', () => {
  let upstream: { server: Server; url: string };
  let front: { server: Server; url: string };
  /** What the stand-in service does with the next request. */
  let behave: (req: IncomingMessage, res: ServerResponse) => void;
  const seen: IncomingMessage[] = [];

  const startFront = async (target: string, extra: { timeoutMs?: number; maxBodyBytes?: number } = {}) => {
    const proxy = createServiceProxy({
      service: 'thoughts',
      target,
      internalSecret: SECRET,
      log: createLogger({ name: 'gateway', level: 'silent' }),
      gatewayHeaders: new Set(['x-frame-options']),
      maxBodyBytes: extra.maxBodyBytes ?? 1024 * 1024,
      timeoutMs: extra.timeoutMs,
    });
    return listen((req, res) => proxy(req, res, FORWARDING));
  };

  beforeAll(async () => {
    upstream = await listen((req, res) => {
      seen.push(req);
      behave(req, res);
    });
    front = await startFront(upstream.url, { timeoutMs: 400, maxBodyBytes: 64 * 1024 });
  });
  afterEach(() => {
    seen.length = 0;
  });
  afterAll(() => {
    for (const s of [front.server, upstream.server]) {
      s.closeAllConnections();
      s.close();
    }
  });

  it('replaces identity headers with an internal token for the verified user, the client address and the request id', async () => {
    behave = (_req, res) => res.end('ok');
    const res = await fetch(`${front.url}/api/thoughts/all?x=1`, {
      headers: {
        'x-internal-token': 'forged',
        'x-user-id': '1',
        'x-client-ip': '6.6.6.6',
        'x-request-id': 'client-chosen',
        'x-forwarded-user': 'admin',
        cookie: 'a=b',
      },
    });
    expect(await res.text()).toBe('ok');
    const req = seen[0]!;
    expect(req.url).toBe('/api/thoughts/all?x=1');
    expect(req.headers['x-user-id']).toBeUndefined();
    expect(req.headers['x-forwarded-user']).toBeUndefined();
    expect(req.headers['x-client-ip']).toBe('203.0.113.9');
    expect(req.headers['x-request-id']).toBe('req-1');
    expect(req.headers.cookie).toBe('a=b');
    const claims = jwt.verify(String(req.headers['x-internal-token']), SECRET, { audience: 'thoughts' });
    expect(claims).toMatchObject({ uid: 7, iss: 'gateway', aud: 'thoughts' });
  });

  it('drops hop-by-hop headers, and those the Connection header names', () => {
    const out = requestHeaders(
      [
        'Host',
        'gw',
        'Connection',
        'keep-alive, X-Secret',
        'X-Secret',
        '1',
        'Keep-Alive',
        '5',
        'Accept',
        '*/*',
      ],
      'svc:1',
    );
    expect(out).toEqual(['host', 'gw', 'accept', '*/*']);
    expect(requestHeaders(['Accept', '*/*'], 'svc:1')).toEqual(['accept', '*/*', 'host', 'svc:1']);
  });

  it('streams a large body to the service and a large answer back, unchanged', async () => {
    behave = (req, res) => {
      const hash = createHash('sha256');
      req.on('data', (c: Buffer) => hash.update(c));
      req.on('end', () => {
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'x-upload-sha': hash.digest('hex'),
        });
        // 3 MB in 48 writes: the answer streams through, it is not buffered first.
        let i = 0;
        const chunk = Buffer.alloc(64 * 1024, 'z');
        const write = () => {
          while (i < 48) {
            i++;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          res.end();
        };
        write();
      });
    };
    const body = randomBytes(48 * 1024);
    const res = await fetch(`${front.url}/api/thoughts`, { method: 'POST', body });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-upload-sha')).toBe(createHash('sha256').update(body).digest('hex'));
    expect((await res.arrayBuffer()).byteLength).toBe(48 * 64 * 1024);
  });

  it('keeps every Set-Cookie, and puts the gateway headers before the service’s own values', async () => {
    behave = (_req, res) => {
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.setHeader('x-frame-options', 'ALLOWALL');
      res.setHeader('x-request-id', 'service-made');
      res.end();
    };
    const res = await fetch(`${front.url}/api/login`, { method: 'POST' });
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-request-id')).toBe('req-1');
  });

  it('marks an API answer private and not to be stored, unless its service set its own Cache-Control', async () => {
    behave = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"username":"sam"}');
    };
    const plain = await fetch(`${front.url}/api/user`);
    expect(plain.headers.get('cache-control')).toBe('private, no-store');
    behave = (_req, res) => {
      res.setHeader('cache-control', 'no-cache');
      res.end();
    };
    expect((await fetch(`${front.url}/api/x`)).headers.get('cache-control')).toBe('no-cache');
  });

  it('refuses a chunked body that grows past the limit with 413, and the service never gets it whole', async () => {
    let received = 0;
    behave = (req, res) => {
      req.on('data', (c: Buffer) => (received += c.length));
      req.on('end', () => res.end('took it all'));
    };
    const answer = await rawExchange(front.url, (socket) => {
      socket.write('POST /api/thoughts HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n');
      const chunk = Buffer.alloc(16 * 1024, 'a');
      let sent = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || sent > 40) return clearInterval(timer);
        sent++;
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        socket.write('\r\n');
      }, 5);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"payload_too_large"');
    expect(received).toBeLessThanOrEqual(64 * 1024 + 16 * 1024);
  });

  it('answers 502 JSON when the service is unreachable', async () => {
    const closed = await listen(() => {});
    closed.server.close();
    const other = await startFront(closed.url);
    try {
      const res = await fetch(`${other.url}/api/thoughts/all`);
      expect(res.status).toBe(502);
      expect(res.headers.get('x-request-id')).toBe('req-1');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.json()).toEqual({
        message: 'The thoughts service is unavailable',
        code: 'bad_gateway',
      });
    } finally {
      other.server.close();
    }
  });

  it('answers 504 JSON when the service stays silent past the timeout', async () => {
    behave = () => {};
    const started = Date.now();
    const res = await fetch(`${front.url}/api/thoughts/all`);
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ code: 'bad_gateway' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('cuts the client off when the service dies mid-answer, instead of leaving it waiting', async () => {
    behave = (req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial');
      setTimeout(() => req.socket.destroy(), 50);
    };
    const res = await fetch(`${front.url}/api/thoughts/all`);
    await expect(res.text()).rejects.toThrow();
  });

  it('ends the call to the service when the client leaves', async () => {
    const upstreamClosed = new Promise<void>((resolve) => {
      behave = (req) => req.socket.once('close', () => resolve());
    });
    const controller = new AbortController();
    const pending = fetch(`${front.url}/api/thoughts/all`, { signal: controller.signal }).catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await pending;
    const closed = await Promise.race([
      upstreamClosed.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open after 3 s'), 3000)),
    ]);
    expect(closed).toBe('closed');
  });

  it('compresses large text answers for clients that accept it, and marks them Vary', async () => {
    const json = JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i, text: 'again and again' })));
    behave = (req, res) => {
      // As Express answers: with a Content-Length.
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (req.url!.includes('no-transform')) res.setHeader('cache-control', 'no-transform');
      res.end(req.url!.includes('small') ? '{"a":1}' : json);
    };
    const get = (path: string, acceptEncoding?: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(
            `${front.url}${path}`,
            { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          )
          .on('error', reject);
      });
    const gz = await get('/api/thoughts/all', 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toBe('Accept-Encoding');
    expect(gunzipSync(gz.body).toString()).toBe(json);
    expect((await get('/api/thoughts/all', 'gzip, br')).headers['content-encoding']).toBe('br');
    for (const [path, enc] of [
      ['/api/thoughts/all', undefined],
      ['/api/thoughts/all', 'gzip;q=0'],
      ['/api/thoughts/small', 'gzip'],
      ['/api/thoughts/no-transform', 'gzip'],
    ] as const) {
      const plain = await get(path, enc);
      expect(plain.headers['content-encoding'], `${path} ${enc}`).toBeUndefined();
    }
    expect((await get('/api/thoughts/all')).body.toString()).toBe(json);
  });
});
