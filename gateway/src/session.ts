import type { Request, RequestHandler } from 'express';
import { isPublicRoute } from '@haven/contracts/routes';
import { AppError, unauthorized } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import { sessionTokenFrom, type SessionStore } from '@haven/kit/sessions';

/** The request path including any router mount point, without the query. */
export function fullPath(req: Request): string {
  const url = req.originalUrl;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Resolves the signed-in user from the session cookie into `res.locals.userId` (null when there is
 * none). Protected routes without a valid, unrevoked session answer 401; public ones pass through.
 */
export function sessionMiddleware(sessions: SessionStore, log: Logger): RequestHandler {
  return async (req, res, next) => {
    const token = sessionTokenFrom(req.headers.cookie);
    const claims = token ? sessions.verifyToken(token) : null;
    let userId: number | null = null;
    if (claims) {
      try {
        if (await sessions.isActive(claims)) userId = claims.userId;
      } catch (err) {
        log.error({ err: (err as Error).message }, 'session store unreachable');
        throw new AppError(503, 'unavailable', 'Sessions are unavailable. Please try again shortly.');
      }
    }
    if (userId === null && !isPublicRoute(fullPath(req))) {
      throw unauthorized(token ? 'Your session has expired. Please log in again.' : 'Not signed in');
    }
    res.locals.userId = userId;
    next();
  };
}
