import { Router } from 'express';
import { describeError } from './db-errors';
import { withTimeout } from './redis';

/** A named readiness check; it throws when its dependency is not usable. */
export type ReadinessCheck = () => Promise<unknown>;

/**
 * `/healthz` answers while the process is alive; `/readyz` runs every check (each bounded in time)
 * and answers 200 when all pass, 503 naming the failing ones otherwise.
 */
export function healthRouter(name: string, checks: Record<string, ReadinessCheck>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: name });
  });
  router.get('/readyz', async (_req, res) => {
    const results = await runChecks(checks);
    const ready = Object.values(results).every((r) => r === 'ok');
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not_ready', service: name, checks: results });
  });
  return router;
}

/** How long one check may take: a server that stops answering must not hang the probe. */
export const CHECK_TIMEOUT_MS = 2000;

/**
 * Runs checks side by side, each within 2 s; the answer is 'ok' or, per failing check, why: a
 * database error as `unavailable (CODE)`, never Drizzle's message (which quotes the query).
 */
export async function runChecks(checks: Record<string, ReadinessCheck>): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([key, check]) => {
      try {
        await withTimeout(Promise.resolve().then(check), CHECK_TIMEOUT_MS, key);
        return [key, 'ok'] as const;
      } catch (err) {
        return [key, reasonOf(err)] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}

function reasonOf(err: unknown): string {
  const described = describeError(err);
  if (described.type === 'DatabaseError') {
    const code = typeof described.sqlState === 'string' ? ` (${described.sqlState})` : '';
    return `${described.unavailable ? 'unavailable' : 'failed'}${code}`;
  }
  return typeof described.message === 'string' && described.message ? described.message : 'failed';
}
