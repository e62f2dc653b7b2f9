import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What travels with one unit of work (a request or a job) so every log line can name it. */
export interface WorkContext {
  requestId: string;
  userId?: number | null;
  jobId?: string;
  /**
   * How long one database query of this work may take (a public request: it answers 503 rather than
   * wait on a database that stopped answering). Unset: no bound (jobs, internal calls, migrations).
   */
  queryTimeoutMs?: number;
}

const storage = new AsyncLocalStorage<WorkContext>();

/** Runs `fn` with `ctx` as the current work context. */
export function runWithContext<T>(ctx: WorkContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The context of the request or job being handled, if any. */
export function currentContext(): WorkContext | undefined {
  return storage.getStore();
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Accepts a request id handed over by a trusted hop, or makes a new one. */
export function requestIdFrom(value: unknown): string {
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : randomUUID();
}
