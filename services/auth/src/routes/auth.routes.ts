import type { Request } from 'express';
import { authContract } from '@haven/contracts/auth';
import { CLIENT_IP_HEADER } from '@haven/contracts/routes';
import type { Config } from '@haven/kit/config';
import { AppError } from '@haven/kit/errors';
import { implement, redirect, reply } from '@haven/kit/http';
import type { RateLimiter, RateRule } from '@haven/kit/rate-limit';
import type { Auth } from '../domain/auth';
import { appUrl } from '../domain/context';
import { cookieFrom } from '@haven/kit/sessions';
import { DEVICE_COOKIE, type LoginThrottle } from '../domain/login-throttle';
import { MESSAGES } from '../domain/registration';
import { hashToken } from '../domain/secrets';
import { rememberDevice, signIn, signOut } from './cookies';

const MINUTE = 60;
const ipOf = (req: Request) => String(req.headers[CLIENT_IP_HEADER] ?? req.socket.remoteAddress ?? 'unknown');

/** Per-IP and per-account limits, so neither one address nor one target can be hammered. */
const limits = {
  /** One address's attempts on any accounts; failures per account are in `LoginThrottle`. */
  login: (ip: string): RateRule[] => [{ name: 'login-ip', key: ip, limit: 30, windowSeconds: 15 * MINUTE }],
  register: (ip: string): RateRule[] => [
    { name: 'register-ip', key: ip, limit: 20, windowSeconds: 60 * MINUTE },
  ],
  verify: (ip: string, email: string): RateRule[] => [
    { name: 'verify-ip', key: ip, limit: 30, windowSeconds: 15 * MINUTE },
    { name: 'verify-account', key: email, limit: 15, windowSeconds: 15 * MINUTE },
  ],
  /** Per link token (its hash: one link tried too often) and per address, never one shared key. */
  verifyLink: (ip: string, token: string): RateRule[] => [
    { name: 'verify-ip', key: ip, limit: 30, windowSeconds: 15 * MINUTE },
    { name: 'verify-link', key: hashToken(token), limit: 5, windowSeconds: 15 * MINUTE },
  ],
  resend: (ip: string, email: string): RateRule[] => [
    { name: 'resend-ip', key: ip, limit: 10, windowSeconds: 60 * MINUTE },
    { name: 'resend-account', key: email, limit: 5, windowSeconds: 60 * MINUTE },
  ],
  forgot: (ip: string, email: string): RateRule[] => [
    { name: 'forgot-ip', key: ip, limit: 10, windowSeconds: 60 * MINUTE },
    { name: 'forgot-account', key: email, limit: 5, windowSeconds: 60 * MINUTE },
  ],
  reset: (ip: string): RateRule[] => [{ name: 'reset-ip', key: ip, limit: 20, windowSeconds: 15 * MINUTE }],
  /** The password is checked: guessing it this way is throttled like signing in. */
  deleteAccount: (ip: string, userId: number): RateRule[] => [
    { name: 'delete-ip', key: ip, limit: 10, windowSeconds: 15 * MINUTE },
    { name: 'delete-account', key: String(userId), limit: 5, windowSeconds: 15 * MINUTE },
  ],
};

export function authRoutes(auth: Auth, limiter: RateLimiter, throttle: LoginThrottle, config: Config) {
  const { sessions } = auth;
  return implement(authContract, {
    currentUser: ({ userId }) => auth.currentUser(userId),

    session: async ({ userId }) => {
      // A public route: the gateway passes no user for a visitor or a revoked or expired session.
      const signedIn = userId as number | null;
      if (signedIn === null) return { user: null };
      try {
        return { user: await auth.currentUser(signedIn) };
      } catch (err) {
        // The account is gone or being deleted: as signed out as a visitor.
        if (err instanceof AppError && err.status === 401) return { user: null };
        throw err;
      }
    },

    login: async ({ body, req, res }) => {
      const attempt = { email: body.email, address: ipOf(req) };
      const deviceCookie = cookieFrom(req.headers.cookie, DEVICE_COOKIE);
      // Only failures count from an address: everyone behind one proxy can still sign in.
      await limiter.check(...limits.login(attempt.address));
      await throttle.check({ ...attempt, device: throttle.knownDevice(deviceCookie, body.email) });
      let user;
      try {
        user = await auth.checkCredentials(body.email, body.password);
      } catch (err) {
        if (err instanceof AppError && err.status === 401)
          await Promise.all([throttle.failed(attempt), limiter.count(...limits.login(attempt.address))]);
        throw err;
      }
      await throttle.succeeded(attempt);
      rememberDevice(res, config, throttle.deviceCookieAfterSignIn(deviceCookie, body.email));
      await signIn(res, config, sessions, user.id);
      return user;
    },

    register: async ({ body, req }) => {
      await limiter.enforce(...limits.register(ipOf(req)));
      return auth.requestVerification(body);
    },

    requestVerification: async ({ body, req }) => {
      await limiter.enforce(...limits.register(ipOf(req)));
      return auth.requestVerification(body);
    },

    verifyEmail: async ({ body, req, res }) => {
      if ('token' in body) {
        await limiter.enforce(...limits.verifyLink(ipOf(req), body.token));
        const outcome = await auth.verifyWithLink(body.token);
        if (!outcome.ok) {
          return reply(400, {
            message: 'Verification failed. Please try again or contact support.',
            code: outcome.reason,
          });
        }
        await signIn(res, config, sessions, outcome.user.id);
        return { message: MESSAGES.verified, user: outcome.user };
      }
      await limiter.enforce(...limits.verify(ipOf(req), body.email));
      const user = await auth.verifyWithCode(body.email, body.code);
      await signIn(res, config, sessions, user.id);
      return { message: MESSAGES.verified, user };
    },

    verifyEmailLink: async ({ query, req }) => {
      const landing = `${appUrl(config)}/verify-email`;
      if (!query.token) return redirect(`${landing}?error=true&reason=invalid_token`);
      try {
        await limiter.enforce(...limits.verifyLink(ipOf(req), query.token));
      } catch (err) {
        // A browser opened this link: it gets the SPA's page with a reason, never a JSON 429.
        if (err instanceof AppError && err.status === 429)
          return redirect(`${landing}?error=true&reason=rate_limited`);
        throw err;
      }
      const outcome = await auth.verifyWithLink(query.token);
      return redirect(
        outcome.ok ? `${landing}?success=true` : `${landing}?error=true&reason=${outcome.reason}`,
      );
    },

    resendVerification: async ({ body, req }) => {
      await limiter.enforce(...limits.resend(ipOf(req), body.email));
      return auth.resendVerification(body.email);
    },

    deleteAccount: async ({ userId, body, req, res }) => {
      await limiter.enforce(...limits.deleteAccount(ipOf(req), userId));
      await auth.deleteAccount(userId, body.password);
      await signOut(req, res, config, sessions);
      return { success: true, message: 'Your account is being deleted' };
    },

    logout: async ({ req, res }) => {
      await signOut(req, res, config, sessions);
      return { success: true, message: 'Logged out' };
    },

    forgotPassword: async ({ body, req }) => {
      await limiter.enforce(...limits.forgot(ipOf(req), body.email));
      return auth.forgotPassword(body.email);
    },

    resetPassword: async ({ body, req }) => {
      await limiter.enforce(...limits.reset(ipOf(req)));
      return auth.resetPassword(body.token, body.password);
    },
  });
}
