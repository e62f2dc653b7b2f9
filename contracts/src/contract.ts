import type { z } from 'zod';

/** HTTP methods a contract route may use. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One route, described once and implemented from both sides (ts-rest style): the service validates
 * `params`, `query` and `body` with these schemas, and the SPA or an internal client reads `responses`
 * by status code.
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
  summary?: string;
}

/** Identity helper that keeps the literal types of a contract object while checking its shape. */
export function defineContract<const T extends Record<string, RouteContract>>(routes: T): T {
  return routes;
}

/** The body type a route answers with for a given status. */
export type ResponseOf<
  R extends RouteContract,
  S extends keyof R['responses'],
> = R['responses'][S] extends z.ZodType ? z.infer<R['responses'][S]> : never;

/** The request body type of a route. */
export type BodyOf<R extends RouteContract> = R['body'] extends z.ZodType ? z.infer<R['body']> : undefined;

/** The parsed query type of a route. */
export type QueryOf<R extends RouteContract> = R['query'] extends z.ZodType ? z.infer<R['query']> : undefined;

/** The parsed params type of a route. */
export type ParamsOf<R extends RouteContract> = R['params'] extends z.ZodType
  ? z.infer<R['params']>
  : undefined;
