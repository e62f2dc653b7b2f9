import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import path from 'node:path';
import compression from 'compression';
import express, { type Express, type RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { debugContract, type DateTimeDebug } from '@haven/contracts/debug';
import { REQUEST_ID_HEADER, SERVICE_NAMES, serviceFor, type ServiceName } from '@haven/contracts/routes';
import { runWithContext } from '@haven/kit/context';
import {
  errorMiddleware,
  internalError,
  notFound,
  notFoundHandler,
  payloadTooLarge,
  toAppError,
} from '@haven/kit/errors';
import { runChecks } from '@haven/kit/health';
import type { Logger } from '@haven/kit/logger';
import type { Metrics } from '@haven/kit/metrics';
import type { QueueRegistry } from '@haven/kit/queue';
import type { Redis } from '@haven/kit/redis';
import type { SessionStore } from '@haven/kit/sessions';
import { startServerSpan } from '@haven/kit/tracing';
import { writeError } from './error-response';
import { apiDocsRouter } from './api-docs';
import { clientAddress, type TrustFunction } from './client-address';
import { crossSiteRefusal, originOf } from './cross-site';
import { describeNow } from './datetime';
import { COMPRESS_THRESHOLD_BYTES } from './encoding';
import { bodyLimitOf, MAX_BODY_BYTES, tooLargeMessage } from './limits';
import { presentsOperatorToken, queueDashboard } from './operator';
import { createServiceProxy, type ServiceProxy } from './proxy';
import { requestMetrics, routeLabeller } from './route-label';
import { headerNames, securityHeaders } from './security-headers';
import { hasSession, pathOf, userOf } from './session';
import { spaPages } from './spa-page';

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
  /** Express's `trust proxy` (from TRUST_PROXY): who may say who the client is. Unset: nobody. */
  trustProxy?: string;
  /** The public address (APP_URL): pages of its origin may change data besides same-host ones. */
  appUrl?: string;
  /** Request metrics by route template; served on the gateway's internal metrics port, not here. */
  metrics?: Metrics;
  /** The queue dashboard for holders of the operator token (OPERATOR_TOKEN); absent: no dashboard. */
  operator?: { token: string; queues: QueueRegistry; allowWrite?: boolean };
}

/** TRUST_PROXY as Express takes it: `true`, a hop count, or addresses/CIDRs/`loopback` names. */
export function trustProxySetting(value: string | undefined): boolean | number | string[] {
  if (!value) return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * The gateway's request handler (it never listens). Every response carries a fresh request id and the
 * security headers. Calls to a service's routes take the fast path: body limit, session check,
 * routing by the contracts' route table, and node:http proxying (see `createServiceProxy`), without
 * Express. Everything else (`/healthz`, an aggregated `/readyz`, the debug route, the OpenAPI
 * document and API reference, unknown `/api` paths, the SPA) is served by a small Express app.
 */
export function createGateway(options: GatewayOptions): RequestListener {
  const { log } = options;
  const app = createGatewayApp(options);
  const security = securityHeaders({ https: options.https ?? false });
  const gatewayHeaders = headerNames(security);
  const site = { appOrigin: originOf(options.appUrl), https: options.https ?? false };
  // Express compiles TRUST_PROXY once; the fast path asks the same function who the client is.
  const trust = app.get('trust proxy fn') as TrustFunction;
  const proxies = Object.fromEntries(
    SERVICE_NAMES.map((name) => [
      name,
      createServiceProxy({
        service: name,
        target: options.services[name],
        internalSecret: options.internalSecret,
        log,
        gatewayHeaders,
        maxBodyBytes: bodyLimitOf(name),
      }),
    ]),
  ) as Record<ServiceName, ServiceProxy>;
  const observe = options.metrics ? requestMetrics(options.metrics) : undefined;

  const label = routeLabeller();
  const handle = (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    const path = pathOf(req.url ?? '/');
    const service = path.startsWith('/api/') ? serviceFor(path) : undefined;
    if (service === undefined) {
      res.setHeader(REQUEST_ID_HEADER, requestId);
      for (let i = 0; i < security.length; i += 2) res.setHeader(security[i]!, security[i + 1]!);
      runWithContext({ requestId }, () => app(req, res));
      return;
    }
    const head = [...security, REQUEST_ID_HEADER, requestId];
    const fail = (err: unknown) => {
      if (res.headersSent) return void res.destroy();
      const known = toAppError(err);
      if (!known) log.error({ err, reqId: requestId, path }, 'unhandled error');
      writeError(res, head, known ?? internalError());
    };
    // A body announced over the limit is refused before anything else; the rest of it is discarded.
    if (Number(req.headers['content-length'] ?? 0) > bodyLimitOf(service))
      return fail(payloadTooLarge(tooLargeMessage(bodyLimitOf(service))));
    // What another site's page could send (a form, a text/plain fetch) stops here, before any service.
    const refusal = crossSiteRefusal({ method: req.method, path, headers: req.headers }, site);
    if (refusal) return fail(refusal);
    userOf(options.sessions, log, { cookie: req.headers.cookie, path, requestId })
      .then((userId) =>
        proxies[service](req, res, { userId, requestId, clientIp: clientAddress(req, trust), head }),
      )
      .catch(fail);
  };

  return (req, res) => {
    const method = req.method ?? 'GET';
    let route: string | undefined;
    // The route template labels the metrics and names the span; found once, when first asked for.
    const routeOf = () => (route ??= label(method, pathOf(req.url ?? '/')));
    observe?.(req, res, routeOf);
    // The gateway is the edge: a client's request id (and trace context) is not trusted, fresh ones are made.
    const requestId = randomUUID();
    const span = startServerSpan(method, {}, { 'haven.service': 'gateway', 'haven.request_id': requestId });
    if (!span) return handle(req, res, requestId);
    res.once('close', () => {
      span.named(routeOf());
      span.end(res.statusCode);
    });
    span.run(() => handle(req, res, requestId));
  };
}

/**
 * The SPA's built files, sent as the build compressed them (Brotli at its highest quality, or gzip,
 * beside each file) when the browser takes that coding: a phone fetches some 15% fewer bytes than
 * from compressing on the fly, and the gateway spends no time on it. A path that cannot be decoded
 * goes on to the JSON 404 instead of the library's plain-text 400.
 */
function builtFiles(
  dir: string,
  options: { immutable?: boolean; maxAge: string; index?: false },
): RequestHandler {
  const serve = expressStaticGzip(dir, {
    enableBrotli: true,
    orderPreference: ['br'],
    index: false,
    serveStatic: options,
  });
  return (req, res, next) => {
    try {
      decodeURIComponent(req.path);
    } catch {
      return notFoundHandler(req, res, next);
    }
    serve(req, res, next);
  };
}

/**
 * The Express part: health, readiness, the debug route, the API reference, a JSON 404 for unknown
 * `/api` paths, the SPA.
 */
function createGatewayApp(options: GatewayOptions): Express {
  const { log } = options;
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names; by default from nobody, so
  // a client cannot pick the address rate limits key on.
  app.set('trust proxy', trustProxySetting(options.trustProxy));

  // Readiness responses and the SPA's files are worth compressing too (the proxy compresses its own).
  app.use(compression({ threshold: COMPRESS_THRESHOLD_BYTES }));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: 'gateway' });
  });
  app.get('/readyz', async (req, res) => {
    const checks: Record<string, () => Promise<unknown>> = { redis: () => options.redis.ping() };
    for (const name of SERVICE_NAMES) {
      checks[name] = async () => {
        const ready = await fetch(new URL('/readyz', options.services[name]), {
          signal: AbortSignal.timeout(1900),
        });
        if (!ready.ok) throw new Error(`not ready (${ready.status})`);
      };
    }
    const results = await runChecks(checks);
    const ready = Object.values(results).every((r) => r === 'ok');
    const status = ready ? 'ready' : 'not_ready';
    if (!ready) log.warn({ checks: results }, 'not ready');
    // Anyone may ask whether the site is up; which part is down is the operator's to know.
    const operator = options.operator;
    const told = operator && presentsOperatorToken(req.headers.authorization, operator.token);
    res.status(ready ? 200 : 503).json(told ? { status, checks: results } : { status });
  });

  const api = express.Router();
  api.use((req, _res, next) => {
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > MAX_BODY_BYTES) throw payloadTooLarge();
    next();
  });
  // The one route the gateway answers itself; its path and response come from the contract.
  api.get(debugContract.datetime.path.slice('/api'.length), (_req, res) => {
    res.set('cache-control', 'no-store').json(describeNow() satisfies DateTimeDebug);
  });
  api.use(apiDocsRouter());
  // Service routes never get here (see createGateway): an unknown /api path is a 404 whether or not
  // the caller is signed in.
  api.use((req) => {
    throw notFound(`No route for ${req.method} ${pathOf(req.originalUrl)}`);
  });
  app.use('/api', api);
  if (options.operator) app.use(queueDashboard(options.operator));

  if (options.staticDir && existsSync(path.join(options.staticDir, 'index.html'))) {
    const pageFor = spaPages(options.staticDir);
    app.use(
      '/assets',
      builtFiles(path.join(options.staticDir, 'assets'), { immutable: true, maxAge: '1y' }),
      // A missing (or unreadable, or absurdly named) asset is a JSON 404, never the SPA nor a 500.
      notFoundHandler,
    );
    app.use(builtFiles(options.staticDir, { index: false, maxAge: '1h' }));
    // History fallback: any other GET that accepts HTML gets the SPA, which routes on the client.
    // The page names the screen's code for the browser to fetch at once (see spaPages), which depends
    // on whether the session is valid: never from a shared cache (Vary), and always asked again.
    app.get(/^(?!\/api\/).*/, async (req, res, next) => {
      if (!req.accepts('html')) return next();
      const signedIn = await hasSession(options.sessions, req.headers.cookie);
      res.set({ 'cache-control': 'no-cache', vary: 'Cookie' }).type('html').send(pageFor(req.path, signedIn));
    });
  }

  app.use(notFoundHandler);
  app.use(errorMiddleware(log));
  return app;
}
