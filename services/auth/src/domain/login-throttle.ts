import { createHmac, timingSafeEqual } from 'node:crypto';
import { unavailable } from '@haven/kit/errors';
import { rateLimitKey, tooManyAttempts } from '@haven/kit/rate-limit';
import type { Redis } from '@haven/kit/redis';

/**
 * Failed-login throttling after OWASP's advice against lockout as a denial of service. Only failures
 * count, and they count twice:
 *
 * - per account **and** address: a wrong-password streak from one address stops that address for
 *   that account (`PAIR_LIMIT` failures per `PAIR_WINDOW`), and no one else;
 * - per account, from anywhere: past a looser ceiling (`ACCOUNT_FREE_FAILURES` within
 *   `ACCOUNT_WINDOW`) every further attempt must wait a pause that starts at `FIRST_PAUSE` and doubles
 *   with each failure, up to `MAX_PAUSE`. A browser that has signed in to the account before carries a device cookie and is
 *   exempt, so the owner on their own device still gets in while a distributed guesser is slowed.
 */
export const PAIR_LIMIT = 5;
const PAIR_WINDOW = 15 * 60;
export const ACCOUNT_FREE_FAILURES = 20;
const ACCOUNT_WINDOW = 60 * 60;
/** Seconds: long enough that the pause holds at the ceiling itself, not only a few failures past it. */
const FIRST_PAUSE = 10;
const MAX_PAUSE = 15 * 60;

/** The cookie naming the accounts this browser has signed in to (proofs, not identities). */
export const DEVICE_COOKIE = 'haven_device';
const DEVICE_COOKIE_MAX_ACCOUNTS = 5;
export const DEVICE_COOKIE_MAX_AGE_MS = 365 * 24 * 3600 * 1000;

export function createLoginThrottle(redis: Redis, options: { prefix: string; deviceKey: Buffer }) {
  const pairKey = (email: string, address: string) =>
    rateLimitKey(options.prefix, { name: 'login-pair', key: `${email}\n${address}` });
  const accountKey = (email: string) => rateLimitKey(options.prefix, { name: 'login-account', key: email });
  const proofOf = (email: string) =>
    createHmac('sha256', options.deviceKey)
      .update(`login-device\n${email.toLowerCase()}`)
      .digest('base64url');

  /** Whether the device cookie carries this account's proof. */
  function knownDevice(cookieValue: string | undefined, email: string): boolean {
    if (!cookieValue) return false;
    const expected = Buffer.from(proofOf(email));
    return cookieValue.split('.').some((proof) => {
      const given = Buffer.from(proof);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }

  async function run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      // Without Redis no limit can hold: refuse rather than let guessing through unlimited.
      throw unavailable();
    }
  }

  return {
    knownDevice,

    /** The device cookie's new value once `email` signed in: its proof first, at most five accounts. */
    deviceCookieAfterSignIn(cookieValue: string | undefined, email: string): string {
      const proof = proofOf(email);
      const others = (cookieValue ?? '').split('.').filter((p) => p && p !== proof);
      return [proof, ...others].slice(0, DEVICE_COOKIE_MAX_ACCOUNTS).join('.');
    },

    /** Throws 429 (with Retry-After) when this attempt must wait; counts nothing. */
    async check(attempt: { email: string; address: string; device: boolean }): Promise<void> {
      const [pair, pairTtl, account] = await run(async () => {
        const results = await redis
          .multi()
          .get(pairKey(attempt.email, attempt.address))
          .ttl(pairKey(attempt.email, attempt.address))
          .hmget(accountKey(attempt.email), 'failures', 'last')
          .exec();
        return (results ?? []).map(([err, value]) => {
          if (err) throw err;
          return value;
        });
      });
      if (Number(pair ?? 0) >= PAIR_LIMIT)
        throw tooManyAttempts(Number(pairTtl) > 0 ? Number(pairTtl) : PAIR_WINDOW);
      if (attempt.device) return;
      const [failures, last] = (account as Array<string | null>).map(Number);
      const over = (failures ?? 0) - ACCOUNT_FREE_FAILURES;
      if (over < 0 || !last) return;
      const pause = Math.min(MAX_PAUSE, FIRST_PAUSE * 2 ** over);
      const waited = (Date.now() - last) / 1000;
      if (waited < pause) throw tooManyAttempts(pause - waited);
    },

    /** Counts a wrong password (or unknown e-mail) against the pair and the account. */
    async failed(attempt: { email: string; address: string }): Promise<void> {
      const pair = pairKey(attempt.email, attempt.address);
      const account = accountKey(attempt.email);
      await run(() =>
        redis
          .multi()
          .incr(pair)
          .expire(pair, PAIR_WINDOW, 'NX')
          .hincrby(account, 'failures', 1)
          .hset(account, 'last', String(Date.now()))
          .expire(account, ACCOUNT_WINDOW)
          .exec(),
      );
    },

    /** A right password: this address's streak on this account is forgiven. */
    async succeeded(attempt: { email: string; address: string }): Promise<void> {
      await redis.del(pairKey(attempt.email, attempt.address)).catch(() => undefined);
    },
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
