import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { INTERNAL_TOKEN_HEADER } from '@haven/contracts/routes';
import { ExpiringCache } from './cache';
import { AppError } from './errors';

const AUDIENCE = 'haven-internal';
const ISSUER = 'haven';
/** Short-lived: an internal token only has to survive one hop. */
const LIFETIME_SECONDS = 60;
/** A signed token is reused for half its lifetime, so every hop has at least 30 s left. */
const REUSE_MS = (LIFETIME_SECONDS / 2) * 1000;

/** Who a request acts for, as the gateway (or a calling service) vouched for it. */
export interface InternalIdentity {
  /** The signed-in user, or null for a public route called without a session. */
  userId: number | null;
}

/**
 * Signs the identity services trust (only the gateway and services hold INTERNAL_SECRET). The
 * request id travels in its own header, so one token per user can serve many requests.
 */
export function signInternalToken(secret: string, identity: InternalIdentity): string {
  return jwt.sign({ uid: identity.userId }, secret, {
    algorithm: 'HS256',
    audience: AUDIENCE,
    issuer: ISSUER,
    expiresIn: LIFETIME_SECONDS,
  });
}

/**
 * A signer that reuses each user's token while it has more than half its life left: signing with
 * jsonwebtoken costs about half a millisecond, which a gateway should not pay on every request.
 */
export function createInternalTokenSigner(secret: string): (userId: number | null) => string {
  const cache = new ExpiringCache<number | null, string>();
  return (userId) => {
    const cached = cache.get(userId);
    if (cached) return cached;
    const token = signInternalToken(secret, { userId });
    cache.set(userId, token, Date.now() + REUSE_MS);
    return token;
  };
}

function decode(secret: string, token: string): { identity: InternalIdentity; expiresAt: number } {
  const claims = jwt.verify(token, secret, { algorithms: ['HS256'], audience: AUDIENCE, issuer: ISSUER });
  if (typeof claims !== 'object' || claims === null || typeof claims.exp !== 'number')
    throw new Error('bad claims');
  const uid = (claims as { uid?: unknown }).uid;
  if (uid !== null && (typeof uid !== 'number' || !Number.isInteger(uid) || uid <= 0))
    throw new Error('bad uid');
  return { identity: { userId: uid }, expiresAt: claims.exp * 1000 };
}

/**
 * Refuses any request that does not carry a valid internal token, so a service port reached
 * directly cannot be spoofed. The identity lands in `res.locals.identity`. A token already verified
 * is remembered (by its exact text) until it expires.
 */
export function requireInternalToken(secret: string): RequestHandler {
  const verified = new ExpiringCache<string, InternalIdentity>();
  return (req, res, next) => {
    const header = req.headers[INTERNAL_TOKEN_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    let identity = token ? verified.get(token) : undefined;
    if (!identity) {
      if (!token) throw new AppError(401, 'internal_token_missing', 'Missing internal token');
      try {
        const result = decode(secret, token);
        identity = result.identity;
        verified.set(token, identity, result.expiresAt);
      } catch {
        throw new AppError(401, 'internal_token_invalid', 'Invalid internal token');
      }
    }
    res.locals.identity = identity;
    next();
  };
}
