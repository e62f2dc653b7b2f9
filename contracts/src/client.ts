import { z } from 'zod';
import type { RouteContract } from './contract';
import { ErrorBody } from './errors';

/*
 * A small typed fetch client over a RouteContract, for services (Node's global fetch) and the SPA.
 * Declared statuses come back as `{ status, body }` with the body parsed by that status's schema, so a
 * caller can branch on status with types; any other status throws an HttpError. With `throwOnError`
 * (the SPA's rule) every status from 400 up throws, declared or not.
 */

/** A status the caller does not handle. Its message follows the spec: `<status>: <body or status text>`. */
export class HttpError extends Error {
  readonly status: number;
  /** The response body as text (the status text when the body was empty). */
  readonly text: string;
  /** The parsed JSON error (`{ message, code?, issues? }`) when the answer carried one. */
  readonly body: ErrorBody | undefined;

  constructor(status: number, text: string, body?: ErrorBody) {
    super(`${status}: ${text}`);
    this.name = 'HttpError';
    this.status = status;
    this.text = text;
    this.body = body;
  }
}

/** A declared status whose body is not what the contract says (not JSON, or failing the schema). */
export class ResponseValidationError extends Error {
  readonly status: number;
  readonly issues: z.core.$ZodIssue[];

  constructor(status: number, message: string, issues: z.core.$ZodIssue[] = []) {
    super(`${status}: ${message}`);
    this.name = 'ResponseValidationError';
    this.status = status;
    this.issues = issues;
  }
}

type FetchLike = (input: string, init?: Parameters<typeof fetch>[1]) => Promise<Response>;

/** Values accepted for a query parameter; arrays are sent comma-separated. */
type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

type ParamsPart<R extends RouteContract> = R extends { params: infer P extends z.ZodType }
  ? { params: { [K in keyof z.input<P>]: string | number } }
  : { params?: undefined };

type QueryPart<R extends RouteContract> = R extends { query: infer Q extends z.ZodType }
  ? object extends z.input<Q>
    ? { query?: z.input<Q> }
    : { query: z.input<Q> }
  : { query?: undefined };

type BodyPart<R extends RouteContract> = R extends { body: infer B extends z.ZodType }
  ? object extends z.input<B>
    ? { body?: z.input<B> }
    : { body: z.input<B> }
  : { body?: undefined };

/** What one call of a route needs besides where to send it. */
export type RequestParts<R extends RouteContract> = ParamsPart<R> &
  QueryPart<R> &
  BodyPart<R> & { headers?: Record<string, string>; signal?: AbortSignal };

/** Options of `callRoute`. */
export type CallOptions<R extends RouteContract> = RequestParts<R> & {
  /** Origin (and optional prefix) to prepend, e.g. `http://127.0.0.1:4001`; `''` for same-origin. */
  baseUrl: string;
  fetch?: FetchLike;
  /** Throw an HttpError on every status from 400 up, even one the route declares. */
  throwOnError?: boolean;
  /** Bypass caches: adds `t=<timestamp>` to the query and no-cache request headers. */
  noCache?: boolean;
};

/** The union of `{ status, body }` over the statuses a route declares. */
export type RouteResponse<R extends RouteContract> = {
  [S in keyof R['responses'] & number]: {
    status: S;
    body: R['responses'][S] extends z.ZodType ? z.output<R['responses'][S]> : never;
  };
}[keyof R['responses'] & number];

/** The body of a 2xx answer of a route: what a call that throws on errors resolves to. */
export type SuccessBody<R extends RouteContract> = Extract<
  RouteResponse<R>,
  { status: SuccessStatus }
>['body'];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206;

/** Replaces each `:name` of the path with its URI-encoded value. */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new TypeError(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** `?a=1&b=x` from an object, skipping undefined and null; `''` when nothing is left. */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** Calls one contract route and parses the answer with the schema of the status that came back. */
export async function callRoute<R extends RouteContract>(
  route: R,
  options: CallOptions<R>,
): Promise<RouteResponse<R>> {
  // The conditional option types are for callers; inside, one loose shape is enough.
  const opts = options as {
    baseUrl: string;
    params?: Record<string, string | number>;
    query?: Record<string, QueryValue>;
    body?: unknown;
    headers?: Record<string, string>;
    signal?: AbortSignal;
    fetch?: FetchLike;
    throwOnError?: boolean;
    noCache?: boolean;
  };
  const query = opts.noCache ? { ...opts.query, t: Date.now() } : opts.query;
  const url = opts.baseUrl.replace(/\/+$/, '') + fillPath(route.path, opts.params) + queryString(query);
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const hasBody = opts.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  if (opts.noCache) {
    headers['cache-control'] = 'no-cache';
    headers.pragma = 'no-cache';
  }

  const doFetch: FetchLike = opts.fetch ?? ((input, init) => fetch(input, init));
  const res = await doFetch(url, {
    method: route.method,
    headers,
    body: hasBody ? JSON.stringify(opts.body) : undefined,
    signal: opts.signal,
    credentials: 'include',
  });

  const text = await res.text();
  const schema = route.responses[res.status];
  if (schema === undefined || (opts.throwOnError && res.status >= 400)) {
    throw new HttpError(res.status, text || res.statusText, errorBodyIn(text));
  }
  if (schema instanceof z.ZodNull) return { status: res.status, body: null } as RouteResponse<R>;

  let raw: unknown = null;
  if (text !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new ResponseValidationError(res.status, `answer is not JSON: ${text.slice(0, 200)}`);
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ResponseValidationError(res.status, 'answer does not match the contract', parsed.error.issues);
  }
  return { status: res.status, body: parsed.data } as RouteResponse<R>;
}

/**
 * The JSON error an answer carries, if any. A body whose `code` this build does not know (a newer
 * server) still yields its message.
 */
function errorBodyIn(text: string): ErrorBody | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const full = ErrorBody.safeParse(raw);
  if (full.success) return full.data;
  const bare = ErrorBody.pick({ message: true }).safeParse(raw);
  return bare.success ? bare.data : undefined;
}

/** One typed function per route; the argument may be left out when the route needs nothing. */
export type RouteFunction<R extends RouteContract> =
  object extends RequestParts<R>
    ? (parts?: RequestParts<R>) => Promise<RouteResponse<R>>
    : (parts: RequestParts<R>) => Promise<RouteResponse<R>>;

/** A client for a whole contract object. */
export type ContractClient<C extends Record<string, RouteContract>> = { [K in keyof C]: RouteFunction<C[K]> };

/**
 * A client for a contract object, e.g. `createInternalClient(thoughtsInternalContract, { baseUrl,
 * headers: () => ({ 'x-internal-token': mint(userId) }) })`. `headers` runs on every call so a
 * short-lived token is always fresh; per-call headers win over it.
 */
export function createInternalClient<C extends Record<string, RouteContract>>(
  contract: C,
  config: { baseUrl: string; headers: () => Record<string, string>; fetch?: FetchLike },
): ContractClient<C> {
  const client: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(contract)) {
    client[name] = (parts: { headers?: Record<string, string> } | undefined) =>
      callRoute(route, {
        ...parts,
        baseUrl: config.baseUrl,
        fetch: config.fetch,
        headers: { ...config.headers(), ...parts?.headers },
      } as CallOptions<RouteContract>);
  }
  return client as ContractClient<C>;
}
