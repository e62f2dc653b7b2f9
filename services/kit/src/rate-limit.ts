import { rateLimited, unavailable } from './errors';
import type { Redis } from './redis';

/** The 429 of every limit: 'Too many attempts. Please try again in N minutes.' with its Retry-After. */
export function tooManyAttempts(retryAfterSeconds: number) {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const minutes = Math.ceil(seconds / 60);
  return rateLimited(
    seconds,
    `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  );
}

/** At most `limit` hits per `windowSeconds` for one key of one rule. */
export interface RateRule {
  name: string;
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counters in Redis, so limits hold across every instance of a service. A limited
 * caller gets a 429 with a message saying when to try again; if Redis cannot be reached the request
 * is refused with 503 rather than let through unlimited.
 */
export function createRateLimiter(redis: Redis, prefix: string) {
  const keyOf = (rule: RateRule) => `${prefix}:rl:${rule.name}:${rule.key.toLowerCase()}`;

  return {
    /** Counts one hit against every rule; throws 429 when any rule is over its limit. */
    async enforce(...rules: RateRule[]): Promise<void> {
      let results;
      try {
        const pipeline = redis.multi();
        for (const rule of rules) {
          pipeline.incr(keyOf(rule));
          pipeline.expire(keyOf(rule), rule.windowSeconds, 'NX');
          pipeline.ttl(keyOf(rule));
        }
        results = await pipeline.exec();
      } catch {
        throw unavailable();
      }
      let retryAfter = 0;
      rules.forEach((rule, i) => {
        const count = Number(results?.[i * 3]?.[1] ?? 0);
        const ttl = Number(results?.[i * 3 + 2]?.[1] ?? rule.windowSeconds);
        if (count > rule.limit) retryAfter = Math.max(retryAfter, ttl > 0 ? ttl : rule.windowSeconds);
      });
      if (retryAfter > 0) throw tooManyAttempts(retryAfter);
    },

    /** Forgets a key's count (e.g. failed logins after a successful one). */
    async reset(rule: Pick<RateRule, 'name' | 'key'>): Promise<void> {
      await redis.del(`${prefix}:rl:${rule.name}:${rule.key.toLowerCase()}`).catch(() => undefined);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
