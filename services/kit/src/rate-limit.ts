import { createHash } from 'node:crypto';
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

/** The Redis key of one rule's count: what it counts (an address, an e-mail) only as a digest. */
export function rateLimitKey(prefix: string, rule: Pick<RateRule, 'name' | 'key'>): string {
  const digest = createHash('sha256').update(rule.key.toLowerCase()).digest('base64url').slice(0, 32);
  return `${prefix}:rl:${rule.name}:${digest}`;
}

/**
 * Fixed-window counters in Redis, so limits hold across every instance of a service. A limited
 * caller gets a 429 with a message saying when to try again; if Redis cannot be reached the request
 * is refused with 503 rather than let through unlimited.
 */
export function createRateLimiter(redis: Redis, prefix: string) {
  const keyOf = (rule: Pick<RateRule, 'name' | 'key'>) => rateLimitKey(prefix, rule);

  /** Each rule's count after adding `add` (0 only reads), and its seconds left. */
  async function counts(rules: RateRule[], add: 0 | 1): Promise<Array<{ count: number; ttl: number }>> {
    let results;
    try {
      const pipeline = redis.multi();
      for (const rule of rules) {
        if (add) pipeline.incr(keyOf(rule)).expire(keyOf(rule), rule.windowSeconds, 'NX');
        else pipeline.get(keyOf(rule));
        pipeline.ttl(keyOf(rule));
      }
      results = await pipeline.exec();
    } catch {
      throw unavailable();
    }
    const step = add ? 3 : 2;
    return rules.map((rule, i) => ({
      count: Number(results?.[i * step]?.[1] ?? 0),
      ttl: Number(results?.[i * step + step - 1]?.[1] ?? rule.windowSeconds),
    }));
  }

  /** Throws 429 when any rule is past its limit (`atLimit`: already at it, for a read before counting). */
  function refuseOver(
    rules: RateRule[],
    seen: Array<{ count: number; ttl: number }>,
    atLimit: boolean,
  ): void {
    let retryAfter = 0;
    rules.forEach((rule, i) => {
      const { count, ttl } = seen[i]!;
      if (atLimit ? count >= rule.limit : count > rule.limit)
        retryAfter = Math.max(retryAfter, ttl > 0 ? ttl : rule.windowSeconds);
    });
    if (retryAfter > 0) throw tooManyAttempts(retryAfter);
  }

  return {
    /** Counts one hit against every rule; throws 429 when any rule is over its limit. */
    async enforce(...rules: RateRule[]): Promise<void> {
      refuseOver(rules, await counts(rules, 1), false);
    },

    /** Throws 429 when a rule has no hit left, counting nothing (for limits on failures only). */
    async check(...rules: RateRule[]): Promise<void> {
      refuseOver(rules, await counts(rules, 0), true);
    },

    /** Counts one hit against every rule, refusing nothing (the next `check` will). */
    async count(...rules: RateRule[]): Promise<void> {
      await counts(rules, 1);
    },

    /** Forgets a key's count (e.g. failed logins after a successful one). */
    async reset(rule: Pick<RateRule, 'name' | 'key'>): Promise<void> {
      await redis.del(keyOf(rule)).catch(() => undefined);
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
