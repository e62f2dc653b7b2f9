import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import type { Caller } from '@haven/contracts/contract';
import { INTERNAL_TOKEN_HEADER, SERVICE_NAMES, type ServiceName } from '@haven/contracts/routes';
import { ExpiringCache } from './cache';
import { AppError } from './errors';

/** Short-lived: an internal token only has to survive one hop. */
const LIFETIME_SECONDS = 60;
/** A signed token is reused for half its lifetime, so every hop has at least 30 s left. */
const REUSE_MS = (LIFETIME_SECONDS / 2) * 1000;
const CALLERS: ReadonlySet<string> = new Set<Caller>(['gateway', ...SERVICE_NAMES]);

/** Who a request acts for, and who vouched for it. */
export interface InternalIdentity {
  /** The signed-in user, or null for a public route called without a session. */
  userId: number | null;
  /** The hop that signed the token: the gateway, or the service making an internal call. */
  caller: Caller;
}

/** What one internal token says: who calls (`iss`), whom (`aud`), for which user (`uid`). */
export interface InternalClaims extends InternalIdentity {
  audience: ServiceName;
}

/**
 * Signs the identity services trust (only the gateway and services hold INTERNAL_SECRET). A token is
 * addressed to one service: another service refuses it. The request id travels in its own header,
 * so one token per (target, user) can serve many requests.
 */
export function signInternalToken(secret: string, claims: InternalClaims): string {
  return jwt.sign({ uid: claims.userId }, secret, {
    algorithm: 'HS256',
    issuer: claims.caller,
    audience: claims.audience,
    expiresIn: LIFETIME_SECONDS,
  });
}

/**
 * A signer for one caller that reuses each (target, user) token while it has more than half its life
 * left: signing with jsonwebtoken costs about half a millisecond, which no hop should pay per request.
 */
export function createInternalTokenSigner(
  secret: string,
  caller: Caller,
): (audience: ServiceName, userId: number | null) => string {
  const cache = new ExpiringCache<string, string>();
  return (audience, userId) => {
    const key = `${audience}|${userId}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const token = signInternalToken(secret, { caller, audience, userId });
    cache.set(key, token, Date.now() + REUSE_MS);
    return token;
  };
}

function decode(
  secret: string,
  audience: ServiceName,
  token: string,
): { identity: InternalIdentity; expiresAt: number } {
  const claims = jwt.verify(token, secret, { algorithms: ['HS256'], audience });
  if (typeof claims !== 'object' || claims === null || typeof claims.exp !== 'number')
    throw new Error('bad claims');
  const { uid, iss } = claims as { uid?: unknown; iss?: unknown };
  if (uid !== null && (typeof uid !== 'number' || !Number.isInteger(uid) || uid <= 0))
    throw new Error('bad uid');
  if (typeof iss !== 'string' || !CALLERS.has(iss)) throw new Error('bad issuer');
  return { identity: { userId: uid, caller: iss as Caller }, expiresAt: claims.exp * 1000 };
}

/**
 * Refuses any request that does not carry a valid internal token addressed to this service, so a
 * service port reached directly cannot be spoofed, and a token minted for one service cannot be
 * replayed at another. The identity lands in `res.locals.identity`; which callers a route accepts is
 * the route's own business (see `mountContract`). A verified token is remembered until it expires.
 */
export function requireInternalToken(secret: string, service: ServiceName): RequestHandler {
  const verified = new ExpiringCache<string, InternalIdentity>();
  return (req, res, next) => {
    const header = req.headers[INTERNAL_TOKEN_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    let identity = token ? verified.get(token) : undefined;
    if (!identity) {
      if (!token) throw new AppError(401, 'internal_token_missing', 'Missing internal token');
      try {
        const result = decode(secret, service, token);
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
