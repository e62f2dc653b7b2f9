import { isPublicRoute } from '@haven/contracts/routes';
import { unauthorized, unavailable } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import { sessionTokenFrom, type SessionStore } from '@haven/kit/sessions';

/** The request path without the query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * The signed-in user named by a request's session cookie, or null when there is none. The cookie's
 * signature is checked (and remembered) by the store; revocation is checked in Redis every time.
 * Throws 401 for a protected `path` without a valid, unrevoked session, and 503 when Redis is down.
 */
export async function userOf(
  sessions: SessionStore,
  log: Logger,
  request: { cookie: string | undefined; path: string; requestId: string },
): Promise<number | null> {
  const token = sessionTokenFrom(request.cookie);
  let userId: number | null;
  try {
    userId = await activeUserOf(sessions, token);
  } catch (err) {
    log.error({ err, reqId: request.requestId }, 'session store unreachable');
    throw unavailable('Sessions are unavailable. Please try again shortly.');
  }
  if (userId === null && !isPublicRoute(request.path)) {
    throw unauthorized(token ? 'Your session has expired. Please log in again.' : 'Not signed in');
  }
  return userId;
}

/**
 * Whether a request's session cookie names a valid, unrevoked session. For pages, where a failed
 * check only means the page is served as to a visitor: the SPA asks for the session itself anyway.
 */
export async function hasSession(sessions: SessionStore, cookie: string | undefined): Promise<boolean> {
  return activeUserOf(sessions, sessionTokenFrom(cookie)).then(
    (userId) => userId !== null,
    () => false,
  );
}

/** The user of a session token with a valid signature and not revoked; throws when Redis cannot say. */
async function activeUserOf(
  sessions: SessionStore,
  token: string | null | undefined,
): Promise<number | null> {
  const claims = token ? sessions.verifyToken(token) : null;
  return claims && (await sessions.isActive(claims)) ? claims.userId : null;
}
