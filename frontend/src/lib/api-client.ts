import type { ErrorBody } from '@haven/contracts/errors';

/**
 * A non-OK answer. The message follows the spec's wording, `${status}: ${body text or statusText}`;
 * `body` keeps the parsed JSON error (`{ message, code?, issues? }`) when the server sent one.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly body: ErrorBody | undefined;

  constructor(status: number, message: string, body?: ErrorBody) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

type QueryValue = string | number | boolean | null | undefined;

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON; the JSON content-type header is added only when a body is present. */
  body?: unknown;
  /** Appended as query parameters; null and undefined values are skipped. */
  query?: Record<string, QueryValue>;
  headers?: HeadersInit;
  signal?: AbortSignal;
  /** Adds `t={timestamp}` and no-cache headers, for fetches that must bypass any cache. */
  noCache?: boolean;
  /** `returnNull` turns a 401 into a `null` result instead of an error (the current-user call). */
  on401?: 'throw' | 'returnNull';
}

function buildUrl(path: string, query: ApiFetchOptions['query'], noCache: boolean): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) params.set(key, String(value));
  }
  if (noCache) params.set('t', String(Date.now()));
  const search = params.toString();
  if (!search) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).message === 'string';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The one request helper: credentials always included, JSON in and out. Resolves to the parsed JSON
 * answer (or `null` for an empty one); throws an `ApiError` on any non-OK status.
 */
export async function apiFetch<T>(
  path: string,
  options: ApiFetchOptions & { on401: 'returnNull' },
): Promise<T | null>;
export async function apiFetch<T>(path: string, options?: ApiFetchOptions): Promise<T>;
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T | null> {
  const { method = 'GET', body, query, signal, noCache = false, on401 = 'throw' } = options;
  const headers = new Headers(options.headers);
  const hasBody = body !== undefined;
  if (hasBody) headers.set('Content-Type', 'application/json');
  if (noCache) {
    headers.set('Cache-Control', 'no-cache');
    headers.set('Pragma', 'no-cache');
  }

  const res = await fetch(buildUrl(path, query, noCache), {
    method,
    headers,
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
    signal,
  });

  if (res.status === 401 && on401 === 'returnNull') return null;

  const text = await res.text();
  if (!res.ok) {
    const parsed = text ? parseJson(text) : undefined;
    throw new ApiError(
      res.status,
      `${res.status}: ${text || res.statusText}`,
      isErrorBody(parsed) ? parsed : undefined,
    );
  }
  if (!text) return null;
  return parseJson(text) as T;
}

/**
 * The most readable message for a caught error: the server's own message when it sent one. With a
 * `fallback`, anything else (a bodiless status, a network failure) reads as the fallback instead.
 */
export function getErrorMessage(error: unknown, fallback?: string): string {
  if (error instanceof ApiError && error.body) return error.body.message;
  if (fallback !== undefined) return fallback;
  if (error instanceof Error) return error.message;
  return String(error);
}
