import type { Request } from 'express';
import { authContract } from '@haven/contracts/auth';
import { CLIENT_IP_HEADER } from '@haven/contracts/routes';
import type { Config } from '@haven/kit/config';
import { implement, redirect, reply } from '@haven/kit/http';
import type { RateLimiter, RateRule } from '@haven/kit/rate-limit';
import type { Auth } from '../domain/auth';
import { appUrl } from '../domain/context';
import { MESSAGES } from '../domain/registration';
import { signIn, signOut } from './cookies';

const MINUTE = 60;
const ipOf = (req: Request) => String(req.headers[CLIENT_IP_HEADER] ?? req.socket.remoteAddress ?? 'unknown');

/** Per-IP and per-account limits, so neither one address nor one target can be hammered. */
const limits = {
  login: (ip: string, email: string): RateRule[] => [
    { name: 'login-ip', key: ip, limit: 30, windowSeconds: 15 * MINUTE },
    { name: 'login-account', key: email, limit: 10, windowSeconds: 15 * MINUTE },
  ],
  register: (ip: string): RateRule[] => [
    { name: 'register-ip', key: ip, limit: 20, windowSeconds: 60 * MINUTE },
  ],
  verify: (ip: string, email: string): RateRule[] => [
    { name: 'verify-ip', key: ip, limit: 30, windowSeconds: 15 * MINUTE },
    { name: 'verify-account', key: email, limit: 15, windowSeconds: 15 * MINUTE },
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
};

export function authRoutes(auth: Auth, limiter: RateLimiter, config: Config) {
  const { sessions } = auth;
  return implement(authContract, {
    currentUser: ({ userId }) => auth.currentUser(userId),

    login: async ({ body, req, res }) => {
      await limiter.enforce(...limits.login(ipOf(req), body.email));
      const user = await auth.checkCredentials(body.email, body.password);
      await limiter.reset({ name: 'login-account', key: body.email });
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
        await limiter.enforce(...limits.verify(ipOf(req), 'link'));
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
      await limiter.enforce(...limits.verify(ipOf(req), 'link'));
      const outcome = await auth.verifyWithLink(query.token);
      return redirect(
        outcome.ok ? `${landing}?success=true` : `${landing}?error=true&reason=${outcome.reason}`,
      );
    },

    resendVerification: async ({ body, req }) => {
      await limiter.enforce(...limits.resend(ipOf(req), body.email));
      return auth.resendVerification(body.email);
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
