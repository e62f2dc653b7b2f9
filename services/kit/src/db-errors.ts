/**
 * What a database error means, read without ever touching its parameters: Drizzle's query errors
 * carry the SQL and every bound value (an e-mail, a password hash) in their message, and pg's errors
 * echo values in `detail`. Logs get the SQLSTATE code, the table and the constraint, nothing else.
 */

interface PgLikeError {
  code?: unknown;
  table?: unknown;
  constraint?: unknown;
  severity?: unknown;
  message?: unknown;
  query?: unknown;
  params?: unknown;
  cause?: unknown;
}

/** SQLSTATE classes and codes that mean "the server is gone or going", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
  'timeout exceeded when trying to connect',
  'the database system is starting up',
  'the database system is shutting down',
  'Cannot use a pool after calling end',
  'Client was closed and is not queryable',
  // pg's client-side bound on a query (see REQUEST_QUERY_TIMEOUT_MS): the server did not answer.
  'Query read timeout',
];
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/** The error and its causes, innermost last (Drizzle wraps pg's error in `cause`). */
function chain(err: unknown): PgLikeError[] {
  const out: PgLikeError[] = [];
  let current: unknown = err;
  while (current && typeof current === 'object' && out.length < 5) {
    out.push(current as PgLikeError);
    current = (current as PgLikeError).cause;
  }
  return out;
}

/** True when the error says the database cannot be reached right now (a 503, not a 500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  return chain(err).some((e) => {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    return UNAVAILABLE_MESSAGES.some((m) => message.includes(m));
  });
}

/** True for Drizzle's query wrapper or a pg server error: their text may hold bound values. */
function isQueryError(err: PgLikeError): boolean {
  return (
    'params' in err || 'query' in err || (typeof err.severity === 'string' && typeof err.code === 'string')
  );
}

/**
 * A log-safe description of an error. Database errors become `{ type, sqlState, table, constraint }`
 * (no SQL, no parameters, no detail); anything else keeps its message and stack.
 */
export function describeError(err: unknown): Record<string, unknown> {
  const links = chain(err);
  if (links.some(isQueryError)) {
    const pgErr = links.find((e) => typeof e.code === 'string') ?? {};
    // Not `code`: the logger redacts every `code` field (verification codes are secrets).
    return {
      type: 'DatabaseError',
      sqlState: pgErr.code,
      table: typeof pgErr.table === 'string' ? pgErr.table : undefined,
      constraint: typeof pgErr.constraint === 'string' ? pgErr.constraint : undefined,
      unavailable: isDatabaseUnavailable(err) || undefined,
    };
  }
  if (err instanceof Error) return { type: err.name, message: err.message, stack: err.stack };
  return { type: typeof err, message: String(err) };
}
