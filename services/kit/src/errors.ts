import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ZodError } from 'zod';
import type { ErrorBody, ErrorCode, ErrorIssue } from '@haven/contracts/errors';
import { describeError, isDatabaseUnavailable } from './db-errors';
import type { Logger } from './logger';

/** An error meant for the client: a status, a stable code and a message safe to show. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      issues?: ErrorIssue[];
      /** Seconds, sent as `Retry-After` (429 and 503). */
      retryAfter?: number;
    } = {},
  ) {
    super(message);
  }
  get retryAfter(): number | undefined {
    return this.options.retryAfter;
  }
  toBody(): ErrorBody {
    return this.options.issues
      ? { message: this.message, code: this.code, issues: this.options.issues }
      : { message: this.message, code: this.code };
  }
}

// One named helper per error, as Outline's server/errors.ts does.
export const badRequest = (message: string) => new AppError(400, 'bad_request', message);
export const unauthorized = (message = 'Not signed in') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Not allowed') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
/** The action needs an account of the user's that is not connected. */
export const notConnected = (message: string) => new AppError(409, 'not_connected', message);
/** The action needs an account that is there but must be connected again (revoked, in error). */
export const reconnectRequired = (message: string) => new AppError(409, 'reconnect_required', message);
/** A server the user named refused what they entered; each server's problem is an issue. */
export const serverRefused = (message: string, issues: ErrorIssue[]) =>
  new AppError(422, 'server_refused', message, { issues });
export const payloadTooLarge = (message = 'Request body is too large') =>
  new AppError(413, 'payload_too_large', message);
/** The body is of a type the route does not take (`Content-Type`). */
export const unsupportedMediaType = (message: string) => new AppError(415, 'unsupported_media_type', message);
export const rateLimited = (retryAfter: number, message = 'Too many requests. Please try again later.') =>
  new AppError(429, 'rate_limited', message, { retryAfter });
export const unavailable = (
  message = 'Service temporarily unavailable. Please try again shortly.',
  retryAfter = 5,
) => new AppError(503, 'unavailable', message, { retryAfter });
/** An upstream provider (Google, Slack…) failed or refused: not the user's fault, nor ours. */
export const badGateway = (message: string) => new AppError(502, 'bad_gateway', message);
export const internalError = () => new AppError(500, 'internal', 'Internal server error');

/** Reduces zod's issues to the `{ path, message, code }` the error body carries. */
function issuesOf(error: ZodError): ErrorIssue[] {
  return error.issues.map((i) => ({
    path: i.path.filter((p): p is string | number => typeof p !== 'symbol'),
    message: i.message,
    code: i.code,
  }));
}

/**
 * A 400 naming what is wrong in a request: the first issue's field and message lead, all issues
 * follow. Only request validation builds one; a ZodError anywhere else is our fault, a 500.
 */
export function validationError(error: ZodError, where: string): AppError {
  const issues = issuesOf(error);
  const first = issues[0];
  const field = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  const message = first ? `Invalid ${where}: ${field}${first.message}` : `Invalid ${where}`;
  return new AppError(400, 'validation_failed', message, { issues });
}

/** Answers any path no route claimed with a JSON 404. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, new AppError(404, 'not_found', `No route for ${req.method} ${req.path}`));
};

/** Writes an AppError as its JSON body, with `Retry-After` when it has one. */
export function sendError(res: Parameters<RequestHandler>[1], error: AppError): void {
  if (error.retryAfter) res.setHeader('retry-after', String(error.retryAfter));
  res.status(error.status).json(error.toBody());
}

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/**
 * Maps anything thrown to the AppError the client sees: application errors as they are, body-parser
 * failures as 4xx, a lost database as 503 with `Retry-After`, and anything else (a ZodError from an
 * outbox payload or a model's answer included) as a 500. Null when it is a 500.
 */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const e = (err ?? {}) as HttpishError;
  if (e.type === 'entity.parse.failed') return new AppError(400, 'malformed_json', 'Malformed JSON body');
  if (e.type === 'entity.too.large') return payloadTooLarge();
  const status = e.status ?? e.statusCode;
  if (err instanceof URIError) {
    // The router could not %-decode a path parameter (`/api/thoughts/%ff`).
    return badRequest('Malformed path: a parameter is not valid %-encoding');
  }
  if (status && status >= 400 && status < 500) {
    return new AppError(status, 'bad_request', e.expose && e.message ? e.message : 'Bad request');
  }
  if (err instanceof TypeError && err.message === 'fetch failed') {
    // An internal call found the other service down (undici's error; its cause has the socket code).
    return unavailable('A service this request needs is unavailable. Please try again shortly.');
  }
  if (isDatabaseUnavailable(err))
    return unavailable('The database is unavailable. Please try again shortly.');
  if (isRedisUnavailable(err))
    return unavailable('A service this request needs is unavailable. Please try again shortly.');
  return null;
}

/**
 * ioredis's ways of saying Redis is down or not answering: a command that timed out, one refused
 * while disconnected (no offline queue on request paths), retries used up, a closed connection.
 */
export function isRedisUnavailable(err: unknown): boolean {
  const e = err as { name?: string; message?: string } | null;
  if (!e || typeof e !== 'object') return false;
  return (
    e.name === 'MaxRetriesPerRequestError' ||
    /^(Command timed out|Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false)/.test(
      e.message ?? '',
    )
  );
}

/**
 * The one error middleware: JSON only, never an HTML page. A 500 answers a generic message while the
 * stack goes to the log; a database outage is logged once per request as a warning.
 */
export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    const known = toAppError(err);
    if (known) {
      if (known.status === 503) {
        // One line per refused request, without a stack: an outage is not a bug.
        const { stack: _stack, ...reason } = describeError(err);
        log.warn({ reason, path: req.path }, 'dependency unavailable');
      }
      sendError(res, known);
      return;
    }
    log.error({ err, method: req.method, path: req.path }, 'unhandled error');
    sendError(res, internalError());
  };
}
