import { pino, type DestinationStream, type Logger } from 'pino';
import { PinoPretty } from 'pino-pretty';
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
 * Human lines for a person at a terminal: time, level in colour, service, request id, message, and
 * the other fields after it. Formatted in this thread (not a worker transport), so a line is written
 * before the process can exit.
 */
export function prettyDestination(
  options: { colorize?: boolean; destination?: NodeJS.WritableStream } = {},
): DestinationStream {
  return PinoPretty({
    colorize: options.colorize ?? true,
    ...(options.destination ? { destination: options.destination } : {}),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name,service,reqId',
    messageFormat: '{if service}{service}{end}{if reqId} [{reqId}]{end} {msg}',
    singleLine: true,
  });
}

/**
 * A JSON logger whose every line carries the current request id (and job id inside a worker), so one
 * request can be followed from the gateway through a service into a job. `pretty` prints human lines
 * instead (`npm start` in a terminal).
 */
export function createLogger(options: {
  name: string;
  level?: string;
  destination?: DestinationStream;
  pretty?: boolean;
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
    options.destination ?? (options.pretty ? prettyDestination() : undefined),
  );
}
