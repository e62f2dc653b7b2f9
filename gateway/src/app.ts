import { existsSync } from 'node:fs';
import path from 'node:path';
import compression from 'compression';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { ErrorBody } from '@haven/contracts/errors';
import { REQUEST_ID_HEADER, SERVICE_NAMES, serviceFor, type ServiceName } from '@haven/contracts/routes';
import { requestIdFrom, runWithContext } from '@haven/kit/context';
import { AppError, errorMiddleware, payloadTooLarge } from '@haven/kit/errors';
import { runChecks } from '@haven/kit/health';
import type { Logger } from '@haven/kit/logger';
import type { Redis } from '@haven/kit/redis';
import type { SessionStore } from '@haven/kit/sessions';
import { describeNow } from './datetime';
import { serviceProxy } from './proxy';
import { fullPath, sessionMiddleware } from './session';

/** Largest request body the gateway lets through (a thought's audio, 10 MB, travels as base64). */
export const MAX_BODY_BYTES = 15 * 1024 * 1024;

export interface GatewayOptions {
  log: Logger;
  internalSecret: string;
  sessions: SessionStore;
  redis: Redis;
  /** Base URL of each service. */
  services: Record<ServiceName, string>;
  /** Built SPA to serve with history fallback; omitted in API-only deployments. */
  staticDir?: string;
  /** Sets `Strict-Transport-Security` and friends only when served over https. */
  https?: boolean;
}

/**
 * The gateway (never listens): request ids, security headers, `/healthz` and an aggregated
 * `/readyz`, the session check on `/api`, routing by the contracts' route table, and the SPA.
 */
export function createGatewayApp(options: GatewayOptions): Express {
  const { log } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');

  app.use((req, res, next) => {
    // The gateway is the edge: a client's request id is not trusted, a fresh one is made.
    const requestId = requestIdFrom(undefined);
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    runWithContext({ requestId }, next);
  });

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
          upgradeInsecureRequests: options.https ? [] : null,
        },
      },
      strictTransportSecurity: options.https ? undefined : false,
    }),
  );

  // Lists of thoughts run to megabytes of JSON; on a phone's connection gzip is worth its CPU.
  app.use(compression({ threshold: 1024 }));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: 'gateway' });
  });
  app.get('/readyz', async (_req, res) => {
    const checks: Record<string, () => Promise<unknown>> = { redis: () => options.redis.ping() };
    for (const name of SERVICE_NAMES) {
      checks[name] = async () => {
        const answer = await fetch(new URL('/readyz', options.services[name]), {
          signal: AbortSignal.timeout(1900),
        });
        if (!answer.ok) throw new Error(`not ready (${answer.status})`);
      };
    }
    const results = await runChecks(checks);
    const ready = Object.values(results).every((r) => r === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: results });
  });

  const api = express.Router();
  api.use((req, _res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > MAX_BODY_BYTES) throw payloadTooLarge();
    next();
  });
  api.get('/debug/datetime', (_req, res) => {
    res.set('cache-control', 'no-store').json(describeNow());
  });
  api.use((req, _res, next) => {
    // An unknown /api path is a 404 whether or not the caller is signed in.
    if (!serviceFor(fullPath(req))) {
      throw new AppError(404, 'not_found', `No route for ${req.method} ${fullPath(req)}`);
    }
    next();
  });
  api.use(sessionMiddleware(options.sessions, log));
  const proxies = Object.fromEntries(
    SERVICE_NAMES.map((name) => [
      name,
      serviceProxy({
        service: name,
        target: options.services[name],
        internalSecret: options.internalSecret,
        log,
      }),
    ]),
  ) as Record<ServiceName, express.RequestHandler>;
  api.use((req, res, next) => {
    const service = serviceFor(fullPath(req)) as ServiceName;
    // The proxy forwards req.url; restore the /api prefix the router stripped.
    req.url = req.originalUrl;
    return proxies[service](req, res, next);
  });
  app.use('/api', api);

  if (options.staticDir && existsSync(path.join(options.staticDir, 'index.html'))) {
    const index = path.join(options.staticDir, 'index.html');
    app.use(
      '/assets',
      express.static(path.join(options.staticDir, 'assets'), {
        immutable: true,
        maxAge: '1y',
        fallthrough: false,
      }),
    );
    app.use(express.static(options.staticDir, { index: false, maxAge: '1h' }));
    // History fallback: any other GET that accepts HTML gets the SPA, which routes on the client.
    app.get(/^(?!\/api\/).*/, (req, res, next) => {
      if (!req.accepts('html')) return next();
      res.set('cache-control', 'no-cache').sendFile(index);
    });
  }

  app.use((req, res) => {
    res
      .status(404)
      .json({ message: `No route for ${req.method} ${req.path}`, code: 'not_found' } satisfies ErrorBody);
  });
  app.use(errorMiddleware(log));
  return app;
}
