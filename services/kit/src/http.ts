import express, { type Express, type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { BodyOf, Caller, ParamsOf, QueryOf, RouteContract } from '@haven/contracts/contract';
import { isPublicRoute, REQUEST_ID_HEADER, type ServiceName } from '@haven/contracts/routes';
import { answerProblems } from './answer-check';
import { Reply, type Checked } from './answers';
import { currentContext, requestIdFrom, runWithContext } from './context';
import { startServerSpan } from './tracing';
import { REQUEST_QUERY_TIMEOUT_MS } from './db';
import { NUL_MESSAGE } from '@haven/contracts/common';
import {
  AppError,
  errorMiddleware,
  forbidden,
  internalError,
  notFoundHandler,
  unauthorized,
  validationError,
} from './errors';
import { requireInternalToken, type InternalIdentity } from './internal-auth';
import type { Logger } from './logger';
import { METRICS_PATH, metricsRouter, type Metrics } from './metrics';

export { redirect, reply } from './answers';

/** Everything a route handler receives: validated input and the acting user. */
export interface HandlerInput<R extends RouteContract> {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  /** The signed-in user. Routes outside PUBLIC_ROUTES refuse anonymous calls before the handler runs. */
  userId: number;
  /** Who called: the gateway, or the service making an internal call. */
  caller: Caller;
  req: Request;
  res: Response;
}

type AnyHandler<R extends RouteContract> = (input: HandlerInput<R>) => unknown;

/**
 * The handlers of a contract, each answer typed by its route's `responses`: a plain value is the 200
 * answer, `reply(status, body)` another declared status, `redirect(url)` a declared 302. An answer
 * with a field the contract does not list, or an undeclared status, does not compile.
 */
export type Handlers<
  C extends Record<string, RouteContract>,
  H extends { [K in keyof C]: AnyHandler<C[K]> },
> = {
  [K in keyof C]: (
    input: HandlerInput<C[K]>,
  ) => Checked<C[K], ReturnType<H[K]>> | Promise<Checked<C[K], ReturnType<H[K]>>>;
};

/** A contract together with its handlers, ready for the service app to mount. */
export interface ContractRoutes {
  contract: Record<string, RouteContract>;
  handlers: Record<string, AnyHandler<RouteContract>>;
}

/** Pairs a contract with its handlers (ts-rest's `implement`), checking every answer's type. */
export function implement<
  C extends Record<string, RouteContract>,
  H extends { [K in keyof C]: AnyHandler<C[K]> },
>(contract: C, handlers: H & Handlers<C, H>): ContractRoutes {
  return { contract, handlers: handlers as unknown as ContractRoutes['handlers'] };
}

function parsePart(
  schema: z.ZodType | undefined,
  value: unknown,
  where: string,
  fromPerson: boolean,
): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationError(result.error, where);
  if (fromPerson) refuseNul(result.data, where);
  return result.data;
}

/**
 * A person's input with a NUL anywhere is a 400 naming the field, whatever the contract says of it:
 * PostgreSQL text cannot hold one, so it would otherwise be a 500 (or a lookup that fails) later.
 */
function refuseNul(value: unknown, where: string, path: Array<string | number> = []): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) {
      const field = path.length > 0 ? `${path.join('.')}: ` : '';
      throw new AppError(400, 'validation_failed', `Invalid ${where}: ${field}${NUL_MESSAGE}`, {
        issues: [{ path, message: NUL_MESSAGE }],
      });
    }
  } else if (Array.isArray(value)) value.forEach((item, i) => refuseNul(item, where, [...path, i]));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) refuseNul(item, where, [...path, key]);
}

/** Routes with fewer `:params` first, so `/api/thoughts/range` is matched before `/api/thoughts/:id`. */
export function paramCount(path: string): number {
  return path.split('/').filter((s) => s.startsWith(':')).length;
}

/** The callers a route accepts: its own list, else the gateway alone for public `/api` routes. */
export function callersOf(route: RouteContract): readonly Caller[] {
  if (route.callers) return route.callers;
  if (route.path.startsWith('/internal/')) {
    throw new Error(`Internal route ${route.method} ${route.path} must list the services it accepts`);
  }
  return ['gateway'];
}

export interface MountOptions {
  log: Logger;
  /** Parse every answer against its schema (tests and development): a drift is a 500 and a log line. */
  checkAnswers: boolean;
}

/**
 * Mounts a contract's handlers on a router: each request is checked for its caller (403 otherwise),
 * signed-in user (401 for non-public routes) and input (400 naming the field), then the handler's
 * answer is sent with its status.
 */
export function mountContract(router: Router, routes: ContractRoutes, options: MountOptions): void {
  const entries = Object.entries(routes.contract).sort(
    ([, a], [, b]) => paramCount(a.path) - paramCount(b.path),
  );
  for (const [name, route] of entries) {
    const handler = routes.handlers[name];
    if (!handler) throw new Error(`No handler for contract route "${name}" (${route.method} ${route.path})`);
    const callers = callersOf(route);
    // Decided on the concrete path: a route pattern such as `/api/auth/:provider/callback` is
    // public only for the providers the route table lists.
    const needsUser = (req: Request) => !isPublicRoute(req.baseUrl + req.path);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    // What a person sends (not what services pass each other, such as a mail's text as it came).
    const fromPerson = route.path.startsWith('/api/');
    router[method](route.path, async (req: Request, res: Response) => {
      // The template, not the concrete path, labels the request's metrics (no ids in labels).
      res.locals.route = route.path;
      const identity = res.locals.identity as InternalIdentity;
      if (!callers.includes(identity.caller))
        throw forbidden(`${identity.caller} may not call ${route.path}`);
      if (identity.userId === null && needsUser(req)) throw unauthorized();
      const input = {
        params: parsePart(route.params, req.params, 'path parameters', fromPerson),
        query: parsePart(route.query, req.query, 'query', fromPerson),
        body: parsePart(route.body, req.body, 'body', fromPerson),
        userId: identity.userId as number,
        caller: identity.caller,
        req,
        res,
      } as HandlerInput<RouteContract>;
      const result = await handler(input);
      if (res.headersSent) return;
      const answer = result instanceof Reply ? result : new Reply(200, result);
      if (options.checkAnswers) {
        const schema = route.responses[answer.status];
        const problems = schema
          ? answerProblems(schema, answer.body)
          : [`status ${answer.status} is not declared`];
        if (problems.length > 0) {
          options.log.error(
            { route: `${route.method} ${route.path}`, problems },
            'answer does not match the contract',
          );
          throw internalError();
        }
      }
      if (answer.location) res.redirect(answer.status, answer.location);
      else if (answer.body === undefined || answer.body === null) res.status(answer.status).end();
      else res.status(answer.status).json(answer.body);
    });
  }
}

export interface ServiceAppOptions {
  name: ServiceName;
  log: Logger;
  internalSecret: string;
  /** `/healthz` and `/readyz`, mounted before the internal-token check. */
  health: Router;
  /** Served at `/metrics` (before the internal-token check: the port is internal) and fed each request. */
  metrics: Metrics;
  /** The service's `/api` and `/internal` contracts with their handlers. */
  routes: ContractRoutes[];
  /** Largest JSON body accepted, e.g. '1mb'; audio routes raise it. */
  jsonLimit?: string;
  checkAnswers: boolean;
}

/**
 * Builds (never listens) the Express app every service shares: request id, log context and request
 * metrics, health routes and `/metrics`, the internal-token check, JSON body parsing with a size limit, the routes, a JSON 404 and
 * the one error middleware.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req, res, next) => {
    const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const started = process.hrtime.bigint();
    const quiet = req.path === '/healthz' || req.path === '/readyz' || req.path === METRICS_PATH;
    const span = quiet
      ? undefined
      : startServerSpan(req.method, req.headers, {
          'haven.service': options.name,
          'haven.request_id': requestId,
        });
    res.on('finish', () => {
      if (quiet) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = (res.locals.route as string) ?? 'unmatched';
      options.metrics.http.observe({ method: req.method, route, status_code: res.statusCode }, ms / 1000);
      span?.named(route);
      span?.end(res.statusCode);
      runWithContext({ requestId }, () =>
        options.log.info(
          { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
          'request',
        ),
      );
    });
    // A public request answers within a bound even when the database hangs; internal calls (an
    // import's batches) and jobs may take what their work takes.
    const run = () =>
      runWithContext(
        { requestId, ...(req.path.startsWith('/api/') ? { queryTimeoutMs: REQUEST_QUERY_TIMEOUT_MS } : {}) },
        next,
      );
    if (span) span.run(run);
    else run();
  });
  app.use(options.health);
  app.use(metricsRouter(options.metrics.registry));
  app.use(requireInternalToken(options.internalSecret, options.name));
  app.use((req, res, next) => {
    const ctx = currentContext();
    if (ctx) ctx.userId = (res.locals.identity as InternalIdentity).userId;
    next();
  });
  app.use(express.json({ limit: options.jsonLimit ?? '1mb' }));
  const router = express.Router();
  for (const routes of options.routes) {
    mountContract(router, routes, { log: options.log, checkAnswers: options.checkAnswers });
  }
  app.use(router);
  app.use(notFoundHandler);
  app.use(errorMiddleware(options.log));
  return app;
}
