import type { ServerResponse } from 'node:http';
import type { AppError } from '@haven/kit/errors';

/**
 * Sends an AppError as the kit's error middleware would (`{ message, code }` JSON, `Retry-After`),
 * from the gateway's proxy path, which answers with node:http alone. `head` is the headers every
 * response of the gateway carries (security headers, request id), flat.
 */
export function writeError(
  res: ServerResponse,
  head: readonly string[],
  error: AppError,
  options: { close?: boolean } = {},
): void {
  const body = JSON.stringify(error.toBody());
  const headers = [
    ...head,
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(body)),
  ];
  if (error.retryAfter) headers.push('retry-after', String(error.retryAfter));
  // The rest of an unwanted body is not read: the connection ends with this response.
  if (options.close) headers.push('connection', 'close');
  res.writeHead(error.status, headers).end(body);
}
