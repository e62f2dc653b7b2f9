import {
  callRoute,
  HttpError,
  type CallOptions,
  type RequestParts,
  type SuccessBody,
} from '@haven/contracts/client';
import type { RouteContract } from '@haven/contracts/contract';
import type { z } from 'zod';

import { reportUnauthorized } from '@/lib/session-lapse';

/** What one call needs: the route's typed params, query and body, plus the SPA's two options. */
export type ApiParts<R extends RouteContract> = RequestParts<R> & {
  /** Adds `t={timestamp}` and no-cache headers, for fetches that must bypass any cache. */
  noCache?: boolean;
  /** `returnNull` turns a 401 into a `null` result instead of an error (the current-user call). */
  on401?: 'throw' | 'returnNull';
};

/** A route's request body as the caller writes it (before the contract's defaults and transforms). */
export type ApiBody<R extends RouteContract> = R['body'] extends z.ZodType ? z.input<R['body']> : never;

/** The parts argument, optional when the route needs nothing. */
type PartsArg<R extends RouteContract> =
  object extends RequestParts<R> ? [parts?: ApiParts<R>] : [parts: ApiParts<R>];

/**
 * Calls one contract route from the SPA (same origin, credentials included, JSON content-type only
 * with a body) and resolves to its 2xx answer, parsed and typed by the contract. Every status from
 * 400 up throws an `HttpError` whose message is the spec's `${status}: ${body text or statusText}`
 * and whose `body` holds the parsed error, if any. A 401 it throws is also reported as a possibly
 * lapsed session (`session-lapse.ts`).
 */
export async function api<R extends RouteContract>(
  route: R,
  parts: ApiParts<R> & { on401: 'returnNull' },
): Promise<SuccessBody<R> | null>;
export async function api<R extends RouteContract>(route: R, ...parts: PartsArg<R>): Promise<SuccessBody<R>>;
export async function api(route: RouteContract, parts: object = {}): Promise<unknown> {
  const { on401 = 'throw', ...request } = parts as ApiParts<RouteContract> &
    Omit<CallOptions<RouteContract>, 'baseUrl'>;
  try {
    const answer = await callRoute(route, { ...request, baseUrl: '', throwOnError: true });
    return answer.body;
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) {
      if (on401 === 'returnNull') return null;
      reportUnauthorized();
    }
    throw error;
  }
}

/** The HTTP error behind `error`: itself, or the cause a query function wrapped it in ('Failed to…'). */
function httpErrorOf(error: unknown): HttpError | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++)
    if (at instanceof HttpError) return at;
  return undefined;
}

/** What the server said of the failure (behind a wrapper too), when it said anything. */
export function serverMessageOf(error: unknown): string | undefined {
  return httpErrorOf(error)?.body?.message;
}

/**
 * The most readable message for a caught error: the server's own message when it sent one (also
 * behind a query function's 'Failed to…' wrapper). With a `fallback`, anything else (a bodiless
 * status, a network failure) reads as the fallback instead.
 */
export function getErrorMessage(error: unknown, fallback?: string): string {
  const said = serverMessageOf(error);
  if (said !== undefined) return said;
  if (fallback !== undefined) return fallback;
  if (error instanceof Error) return error.message;
  return String(error);
}
