import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from './logger';

export type { Redis };

/** Where a Redis server is, in the plain form both ioredis and BullMQ accept. */
export interface RedisAddress {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db: number;
  tls?: Record<string, never>;
}

/** Parses a redis:// URL into connection options, so BullMQ (which wants options) and clients agree. */
export function redisOptionsFrom(url: string): RedisAddress {
  const u = new URL(url);
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
  };
}

/** How long a request-time Redis command may take before the request answers 503. */
export const REDIS_COMMAND_TIMEOUT_MS = 1500;

/**
 * A client for request-time commands (sessions, rate limits, readiness). Commands fail at once while
 * Redis is unreachable instead of queueing, and fail after REDIS_COMMAND_TIMEOUT_MS when Redis is
 * there but does not answer (hung, overloaded), so a request answers 503 rather than hanging.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  const client = new Redis({
    ...redisOptionsFrom(url),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: true,
    ...options,
  });
  client.on('error', () => {
    // Reconnection is automatic; callers see failures on their own commands.
  });
  return client;
}

/** Connects and waits until Redis answers, or throws a message that says how to get Redis. */
export async function connectRedis(client: Redis, url: string, timeoutMs = 5000): Promise<void> {
  const timer = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`Redis at ${url} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    ).unref(),
  );
  try {
    await Promise.race([client.connect(), timer]);
    await Promise.race([client.ping(), timer]);
  } catch (err) {
    client.disconnect();
    throw new Error(
      `Cannot reach Redis at ${url} (${(err as Error).message}). Start one (redis-server) or set REDIS_URL.`,
    );
  }
}

/** Rejects if `promise` takes longer than `ms`: readiness checks must answer, not hang. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Warns when Redis may evict keys under memory pressure: BullMQ's jobs (and our sessions) must never
 * silently disappear, so the policy must be `noeviction`. Managed Redis may refuse CONFIG: then the
 * warning says the policy could not be checked.
 */
export async function checkEvictionPolicy(client: Redis, log: Logger): Promise<string | undefined> {
  try {
    const answer = (await client.config('GET', 'maxmemory-policy')) as string[];
    const policy = answer[1];
    if (policy !== 'noeviction') {
      log.warn(
        { policy },
        'Redis may evict keys (maxmemory-policy is not noeviction): queued jobs and sessions could be lost. Set maxmemory-policy noeviction.',
      );
    }
    return policy;
  } catch {
    log.warn('could not read Redis maxmemory-policy; make sure it is noeviction');
    return undefined;
  }
}
