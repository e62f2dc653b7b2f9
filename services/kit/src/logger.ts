import { pino, type DestinationStream, type Logger } from 'pino';
import { currentContext } from './context';
import { describeError } from './db-errors';

export type { Logger };

/** Fields that must never reach a log line, wherever they appear. */
const REDACT = [
  'password',
  'token',
  'code',
  'accessToken',
  'refreshToken',
  'audioData',
  'content',
  'secret',
  '*.password',
  '*.token',
  '*.code',
  '*.accessToken',
  '*.refreshToken',
  '*.content',
  '*.secret',
  'headers.cookie',
  'headers.authorization',
  'headers["x-internal-token"]',
];

/**
 * A JSON logger whose every line carries the current request id (and job id inside a worker), so one
 * request can be followed from the gateway through a service into a job.
 */
export function createLogger(options: {
  name: string;
  level?: string;
  destination?: DestinationStream;
}): Logger {
  return pino(
    {
      name: options.name,
      level: options.level ?? 'info',
      redact: { paths: REDACT, censor: '[redacted]' },
      // Errors are logged by what they are, never by the values a failed query was given.
      serializers: { err: describeError },
      mixin() {
        const ctx = currentContext();
        if (!ctx) return {};
        return ctx.jobId ? { reqId: ctx.requestId, jobId: ctx.jobId } : { reqId: ctx.requestId };
      },
    },
    options.destination,
  );
}
