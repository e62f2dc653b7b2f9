import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ExpiringCache } from './cache';
import type { Redis } from './redis';
import { SESSION_COOKIE } from '@haven/contracts/routes';

/**
 * The session cookie's value in a Cookie header, if there is one. A value that is not valid
 * %-encoding is no session at all (a client's garbage must never become a 500).
 */
export function sessionTokenFrom(cookieHeader: string | undefined): string | undefined {
  return cookieFrom(cookieHeader, SESSION_COOKIE);
}

/** One cookie's value from a Cookie header; absent, or broken %-encoding, is undefined. */
export function cookieFrom(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** How long a session lasts without signing in again. */
export const SESSION_TTL_SECONDS = 30 * 24 * 3600;

export interface SessionClaims {
  userId: number;
  sessionId: string;
}

/**
 * Sessions: a JWT in the cookie names a session id that must still exist in Redis, so logout and a
 * password reset revoke it at once on every gateway instance.
 */
export function createSessionStore(
  redis: Redis,
  options: { prefix: string; jwtSecret: string; ttlSeconds?: number },
) {
  const ttl = options.ttlSeconds ?? SESSION_TTL_SECONDS;
  const sessionKey = (sid: string) => `${options.prefix}:session:${sid}`;
  const userKey = (userId: number) => `${options.prefix}:user-sessions:${userId}`;
  // Signature checks are deterministic and cost ~0.5 ms with jsonwebtoken: remember good tokens
  // until they expire. Revocation is still checked in Redis on every request (isActive).
  const verified = new ExpiringCache<string, SessionClaims>();

  return {
    ttlSeconds: ttl,

    /** Opens a session and returns the signed cookie value. */
    async create(userId: number): Promise<{ token: string; sessionId: string }> {
      const sessionId = randomUUID();
      await redis
        .multi()
        .set(sessionKey(sessionId), String(userId), 'EX', ttl)
        .sadd(userKey(userId), sessionId)
        .expire(userKey(userId), ttl)
        .exec();
      const token = jwt.sign({ sid: sessionId }, options.jwtSecret, {
        algorithm: 'HS256',
        subject: String(userId),
        expiresIn: ttl,
      });
      return { token, sessionId };
    },

    /** The claims of a cookie value, or null when it is forged, expired or malformed. No Redis call. */
    verifyToken(token: string): SessionClaims | null {
      const known = verified.get(token);
      if (known) return known;
      try {
        const claims = jwt.verify(token, options.jwtSecret, { algorithms: ['HS256'] });
        if (typeof claims !== 'object' || claims === null || typeof claims.exp !== 'number') return null;
        const userId = Number(claims.sub);
        const sid = (claims as { sid?: unknown }).sid;
        if (!Number.isInteger(userId) || userId <= 0 || typeof sid !== 'string') return null;
        const result = { userId, sessionId: sid };
        verified.set(token, result, claims.exp * 1000);
        return result;
      } catch {
        return null;
      }
    },

    /** True while the session has not been revoked or expired. Throws if Redis is unreachable. */
    async isActive(claims: SessionClaims): Promise<boolean> {
      return (await redis.get(sessionKey(claims.sessionId))) === String(claims.userId);
    },

    async revoke(sessionId: string): Promise<void> {
      await redis.del(sessionKey(sessionId));
    },

    /** Ends every session of a user (password reset). */
    async revokeAll(userId: number): Promise<void> {
      const ids = await redis.smembers(userKey(userId));
      const pipeline = redis.multi().del(userKey(userId));
      for (const id of ids) pipeline.del(sessionKey(id));
      await pipeline.exec();
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
