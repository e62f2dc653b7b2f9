import { Router } from 'express';
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

/** Runs checks side by side, each within 2 s; the answer is 'ok' or the error's message per check. */
export async function runChecks(checks: Record<string, ReadinessCheck>): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([key, check]) => {
      try {
        await withTimeout(check(), 2000, key);
        return [key, 'ok'] as const;
      } catch (err) {
        return [key, (err as Error).message || 'failed'] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}
