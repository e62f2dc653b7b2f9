import express, { type Express, type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { BodyOf, ParamsOf, QueryOf, RouteContract } from '@haven/contracts/contract';
import { isPublicRoute, REQUEST_ID_HEADER } from '@haven/contracts/routes';
import { currentContext, requestIdFrom, runWithContext } from './context';
import { errorMiddleware, notFoundHandler, unauthorized, validationError } from './errors';
import { requireInternalToken, type InternalIdentity } from './internal-auth';
import type { Logger } from './logger';

/** Everything a route handler receives: validated input and the acting user. */
export interface HandlerInput<R extends RouteContract> {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  /** The signed-in user. Routes outside PUBLIC_ROUTES refuse anonymous calls before the handler runs. */
  userId: number;
  req: Request;
  res: Response;
}

/** A handler's answer: a plain value is sent as 200 JSON; `reply()` picks the status; undefined is 204. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const reply = (status: number, body?: unknown) => new Reply(status, body);

export type Handler<R extends RouteContract> = (input: HandlerInput<R>) => unknown;

function parsePart(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** Routes with fewer `:params` first, so `/api/thoughts/range` is matched before `/api/thoughts/:id`. */
function paramCount(path: string): number {
  return path.split('/').filter((s) => s.startsWith(':')).length;
}

/**
 * Implements a contract on a router: one handler per route, each validated with the contract's
 * schemas before it runs. A route not listed in PUBLIC_ROUTES needs a signed-in user (401 otherwise).
 */
export function mountContract<C extends Record<string, RouteContract>>(
  router: Router,
  contract: C,
  handlers: { [K in keyof C]: Handler<C[K]> },
): void {
  const entries = Object.entries(contract).sort(([, a], [, b]) => paramCount(a.path) - paramCount(b.path));
  for (const [name, route] of entries) {
    const handler = handlers[name as keyof C] as Handler<RouteContract> | undefined;
    if (!handler) throw new Error(`No handler for contract route "${name}" (${route.method} ${route.path})`);
    const needsUser = !isPublicRoute(route.path);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    router[method](route.path, async (req: Request, res: Response) => {
      const identity = res.locals.identity as InternalIdentity;
      if (needsUser && identity.userId === null) throw unauthorized();
      const input = {
        params: parsePart(route.params, req.params, 'path parameters'),
        query: parsePart(route.query, req.query, 'query'),
        body: parsePart(route.body, req.body, 'body'),
        userId: identity.userId as number,
        req,
        res,
      } as HandlerInput<RouteContract>;
      const result = await handler(input);
      if (res.headersSent) return;
      if (result instanceof Reply) {
        if (result.body === undefined) res.status(result.status).end();
        else res.status(result.status).json(result.body);
      } else if (result === undefined) {
        res.status(204).end();
      } else {
        res.json(result);
      }
    });
  }
}

export interface ServiceAppOptions {
  name: string;
  log: Logger;
  internalSecret: string;
  /** `/healthz` and `/readyz`, mounted before the internal-token check. */
  health: Router;
  /** Adds the service's `/api` and `/internal` routes. */
  routes: (router: Router) => void;
  /** Largest JSON body accepted, e.g. '1mb'; audio routes raise it. */
  jsonLimit?: string;
}

/**
 * Builds (never listens) the Express app every service shares: request id and log context, health
 * routes, the internal-token check, JSON body parsing with a size limit, the routes, a JSON 404 and
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
    res.on('finish', () => {
      if (req.path === '/healthz' || req.path === '/readyz') return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      runWithContext({ requestId }, () =>
        options.log.info(
          { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
          'request',
        ),
      );
    });
    runWithContext({ requestId }, next);
  });
  app.use(options.health);
  app.use(requireInternalToken(options.internalSecret));
  app.use((req, res, next) => {
    const ctx = currentContext();
    if (ctx) ctx.userId = (res.locals.identity as InternalIdentity).userId;
    next();
  });
  app.use(express.json({ limit: options.jsonLimit ?? '1mb' }));
  const router = express.Router();
  options.routes(router);
  app.use(router);
  app.use(notFoundHandler);
  app.use(errorMiddleware(options.log));
  return app;
}
