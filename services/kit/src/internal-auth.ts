import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { INTERNAL_TOKEN_HEADER } from '@haven/contracts/routes';
import { AppError } from './errors';

const AUDIENCE = 'haven-internal';
const ISSUER = 'haven';
/** Short-lived: an internal token only has to survive one hop. */
const LIFETIME_SECONDS = 60;

/** Who a request acts for, as the gateway (or a calling service) vouched for it. */
export interface InternalIdentity {
  /** The signed-in user, or null for a public route called without a session. */
  userId: number | null;
  requestId?: string;
}

/** Signs the identity a service trusts. Only the gateway and services hold INTERNAL_SECRET. */
export function signInternalToken(secret: string, identity: InternalIdentity): string {
  return jwt.sign({ uid: identity.userId, rid: identity.requestId }, secret, {
    algorithm: 'HS256',
    audience: AUDIENCE,
    issuer: ISSUER,
    expiresIn: LIFETIME_SECONDS,
  });
}

/** Verifies an internal token; throws a 401 AppError when it is missing, forged or expired. */
export function verifyInternalToken(secret: string, token: string | undefined): InternalIdentity {
  if (!token) throw new AppError(401, 'internal_token_missing', 'Missing internal token');
  try {
    const claims = jwt.verify(token, secret, { algorithms: ['HS256'], audience: AUDIENCE, issuer: ISSUER });
    if (typeof claims !== 'object' || claims === null) throw new Error('bad claims');
    const uid = (claims as { uid?: unknown }).uid;
    const rid = (claims as { rid?: unknown }).rid;
    if (uid !== null && (typeof uid !== 'number' || !Number.isInteger(uid) || uid <= 0)) throw new Error('bad uid');
    return { userId: uid, requestId: typeof rid === 'string' ? rid : undefined };
  } catch {
    throw new AppError(401, 'internal_token_invalid', 'Invalid internal token');
  }
}

/**
 * Refuses any request that does not carry a valid internal token, so a service port reached
 * directly cannot be spoofed. The identity lands in `res.locals.identity`.
 */
export function requireInternalToken(secret: string): RequestHandler {
  return (req, res, next) => {
    const header = req.headers[INTERNAL_TOKEN_HEADER];
    res.locals.identity = verifyInternalToken(secret, Array.isArray(header) ? header[0] : header);
    next();
  };
}
