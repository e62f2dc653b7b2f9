import type { Redis } from './redis';

/**
 * Takes a slot for `ARGV[3]` (a job id) in the set of jobs running for one key, unless `ARGV[2]`
 * are running already. Slots older than the lease (`ARGV[1]` ms ago) are dropped first, so a worker
 * that died mid-job frees its slot by itself. A job that holds a slot gets it again (a retry).
 */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[4]) - tonumber(ARGV[1]))
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return 1
end
return 0`;

/**
 * At most `perKey` jobs of one key (a user) running at once across every worker and replica, so one
 * user's burst of work waits its turn instead of filling the shared workers while everyone else
 * waits: BullMQ's open-source queues have no per-group concurrency. A job that finds no slot is
 * put back as delayed by its handler (`ctx.retryIn`), behind the other users' waiting jobs.
 */
export function createFairShare(
  redis: Redis,
  options: { prefix: string; name: string; perKey: number; leaseMs: number },
) {
  const keyOf = (key: string) => `${options.prefix}:fair:${options.name}:${key}`;
  return {
    /** True when `jobId` may run now for `key` (it then holds a slot until `release`). */
    async take(key: string, jobId: string): Promise<boolean> {
      const taken = await redis.eval(TAKE, 1, keyOf(key), options.leaseMs, options.perKey, jobId, Date.now());
      return taken === 1;
    },
    async release(key: string, jobId: string): Promise<void> {
      await redis.zrem(keyOf(key), jobId);
    },
  };
}
export type FairShare = ReturnType<typeof createFairShare>;
