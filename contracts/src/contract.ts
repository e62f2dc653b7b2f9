import type { z } from 'zod';
import type { ServiceName } from './routes';

/** HTTP methods a contract route may use. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Who may call a service: the gateway (on a user's behalf) or another service. */
export type Caller = 'gateway' | ServiceName;

/**
 * One route, described once and implemented from both sides (ts-rest style): the service validates
 * `params`, `query` and `body` with these schemas and its handler's answer is typed (and, outside
 * production, checked) by `responses`; the SPA or an internal client reads `responses` by status.
 */
export interface RouteContract {
  method: HttpMethod;
  /** Express-style path, e.g. `/api/thoughts/:id`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Answer schemas by status code. `z.null()` marks an answer with no body worth reading. */
  responses: Partial<Record<number, z.ZodType>>;
  /**
   * The callers this route accepts (others get 403). Public `/api` routes default to the gateway
   * only; every `/internal` route must list its callers.
   */
  callers?: readonly Caller[];
  summary?: string;
}

/** Identity helper that keeps the literal types of a contract object while checking its shape. */
export function defineContract<const T extends Record<string, RouteContract>>(routes: T): T {
  return routes;
}

/** The request body type of a route. */
export type BodyOf<R extends RouteContract> = R['body'] extends z.ZodType ? z.infer<R['body']> : undefined;

/** The parsed query type of a route. */
export type QueryOf<R extends RouteContract> = R['query'] extends z.ZodType ? z.infer<R['query']> : undefined;

/** The parsed params type of a route. */
export type ParamsOf<R extends RouteContract> = R['params'] extends z.ZodType
  ? z.infer<R['params']>
  : undefined;
