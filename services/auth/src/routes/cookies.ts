import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '@haven/contracts/routes';
import type { Config } from '@haven/kit/config';
import { sessionTokenFrom, type SessionStore } from '@haven/kit/sessions';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS } from '../domain/login-throttle';

function cookieOptions(config: Config) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.APP_URL?.startsWith('https:') ?? false,
    path: '/',
  };
}

/** Opens a session for the user and sets its cookie (HttpOnly, SameSite=Lax, Secure over https). */
export async function signIn(
  res: Response,
  config: Config,
  sessions: SessionStore,
  userId: number,
): Promise<void> {
  const { token } = await sessions.create(userId);
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(config), maxAge: sessions.ttlSeconds * 1000 });
}

/**
 * Keeps the proof that this browser signed in to these accounts (see `LoginThrottle`). Sent only
 * to the login route.
 */
export function rememberDevice(res: Response, config: Config, value: string): void {
  res.cookie(DEVICE_COOKIE, value, {
    ...cookieOptions(config),
    path: '/api/login',
    maxAge: DEVICE_COOKIE_MAX_AGE_MS,
  });
}

/** Revokes the session the request's cookie names (if any) and clears the cookie. */
export async function signOut(
  req: Request,
  res: Response,
  config: Config,
  sessions: SessionStore,
): Promise<void> {
  const token = sessionTokenFrom(req.headers.cookie);
  const claims = token ? sessions.verifyToken(token) : null;
  if (claims) await sessions.revoke(claims.sessionId);
  res.clearCookie(SESSION_COOKIE, cookieOptions(config));
}
