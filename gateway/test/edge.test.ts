import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { trustProxySetting } from '../src/app';
import { clientAddress, type TrustFunction } from '../src/client-address';
import { negotiateEncoding } from '../src/encoding';
import { securityHeaders } from '../src/security-headers';

describe('the client address', () => {
  it('is what Express computes as req.ip, for every TRUST_PROXY setting', async () => {
    const settings = [undefined, 'true', '1', '2', 'loopback', 'loopback, 10.0.0.0/8', '203.0.113.0/24'];
    const forwardedFor = [
      undefined,
      '1.2.3.4',
      '10.0.0.5, 1.2.3.4',
      '1.2.3.4, 10.0.0.5',
      '9.9.9.9, 10.0.0.6, 10.0.0.5',
      ' , 1.2.3.4 ,, ',
      'not an address',
    ];
    for (const setting of settings) {
      const app = express();
      app.set('trust proxy', trustProxySetting(setting));
      const trust = app.get('trust proxy fn') as TrustFunction;
      app.get('/', (req, res) => {
        res.json({ express: req.ip, ours: clientAddress(req, trust) });
      });
      const server = http.createServer(app).listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        for (const xff of forwardedFor) {
          const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
            headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
          });
          const { express: expected, ours } = (await res.json()) as { express: string; ours: string };
          expect(ours, `TRUST_PROXY=${setting} X-Forwarded-For=${xff}`).toBe(expected);
        }
      } finally {
        server.close();
      }
    }
  });
});

describe('content negotiation for compression', () => {
  it('picks the coding the compression middleware would', () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['gzip', 'gzip'],
      ['gzip, deflate', 'gzip'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip;q=0', undefined],
      ['GZIP;Q=0.8', 'gzip'],
      ['*', 'br'],
      ['*;q=0', undefined],
      ['identity, gzip;q=0.5', undefined],
      ['deflate', undefined],
    ];
    for (const [header, expected] of cases) expect(negotiateEncoding(header), String(header)).toBe(expected);
  });
});

describe('the security headers', () => {
  it('are exactly what helmet sets per request, over http and https', async () => {
    for (const https of [false, true]) {
      const app = express();
      app.use(
        helmet({
          contentSecurityPolicy: {
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'"],
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", 'data:', 'blob:'],
              mediaSrc: ["'self'", 'blob:', 'data:'],
              connectSrc: ["'self'"],
              fontSrc: ["'self'", 'data:'],
              objectSrc: ["'none'"],
              frameAncestors: ["'none'"],
              upgradeInsecureRequests: https ? [] : null,
            },
          },
          strictTransportSecurity: https ? undefined : false,
        }),
      );
      app.get('/', (_req, res) => {
        res.json(res.getHeaders());
      });
      const server = http.createServer(app).listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const fromHelmet = await (
          await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
        ).json();
        const flat = securityHeaders({ https });
        const ours = Object.fromEntries(
          Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]),
        );
        expect(ours).toEqual(fromHelmet);
        expect('strict-transport-security' in ours).toBe(https);
      } finally {
        server.close();
      }
    }
  });
});
