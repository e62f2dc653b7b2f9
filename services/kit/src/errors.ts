import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { ErrorBody, ErrorIssue } from '@haven/contracts/errors';
import type { Logger } from './logger';

/** An error meant for the client: a status, a stable code and a message safe to show. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: ErrorIssue[],
  ) {
    super(message);
  }
  toBody(): ErrorBody {
    return this.issues
      ? { message: this.message, code: this.code, issues: this.issues }
      : { message: this.message, code: this.code };
  }
}

export const badRequest = (message: string, issues?: ErrorIssue[]) =>
  new AppError(400, 'bad_request', message, issues);
export const unauthorized = (message = 'Not signed in') => new AppError(401, 'unauthorized', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const payloadTooLarge = (message = 'Request body is too large') =>
  new AppError(413, 'payload_too_large', message);
export const tooManyRequests = (message = 'Too many requests. Please try again later.') =>
  new AppError(429, 'rate_limited', message);

/** Reduces zod's issues to the `{ path, message, code }` the error body carries. */
function issuesOf(error: ZodError): ErrorIssue[] {
  return error.issues.map((i) => ({
    path: i.path.filter((p): p is string | number => typeof p !== 'symbol'),
    message: i.message,
    code: i.code,
  }));
}

/** A 400 naming what is wrong: the first issue's field and message lead, all issues follow. */
export function validationError(error: ZodError, where: string): AppError {
  const issues = issuesOf(error);
  const first = issues[0];
  const field = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  const message = first ? `Invalid ${where}: ${field}${first.message}` : `Invalid ${where}`;
  return new AppError(400, 'validation_failed', message, issues);
}

/** Answers any path no route claimed with a JSON 404. */
export const notFoundHandler: RequestHandler = (req, res) => {
  res
    .status(404)
    .json({ message: `No route for ${req.method} ${req.path}`, code: 'not_found' } satisfies ErrorBody);
};

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/**
 * The one error middleware: application errors keep their status and message, validation errors are
 * 400 with their issues, body-parser failures are 4xx, and anything else is a 500 with a generic
 * message while the stack goes to the log. Never an HTML page.
 */
export function errorMiddleware(log: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof AppError) {
      const retryAfter = (err as AppError & { retryAfter?: number }).retryAfter;
      if (retryAfter) res.setHeader('retry-after', String(retryAfter));
      res.status(err.status).json(err.toBody());
      return;
    }
    if (err instanceof ZodError) {
      const e = validationError(err, 'request');
      res.status(400).json(e.toBody());
      return;
    }
    const e = (err ?? {}) as HttpishError;
    if (e.type === 'entity.parse.failed') {
      res.status(400).json({ message: 'Malformed JSON body', code: 'malformed_json' } satisfies ErrorBody);
      return;
    }
    if (e.type === 'entity.too.large') {
      res.status(413).json(payloadTooLarge().toBody());
      return;
    }
    const status = e.status ?? e.statusCode;
    if (status && status >= 400 && status < 500 && e.expose) {
      res
        .status(status)
        .json({ message: e.message ?? 'Bad request', code: 'bad_request' } satisfies ErrorBody);
      return;
    }
    log.error({ err, method: req.method, path: req.path }, 'unhandled error');
    res.status(500).json({ message: 'Internal server error', code: 'internal' } satisfies ErrorBody);
  };
}
