import { badRequest } from '@haven/kit/errors';
import { consumeReset, findResetByTokenHash, insertReset, invalidateResets } from '../db/resets.repository';
import { findUserByEmail, setPasswordHash } from '../db/users.repository';
import { resetMail } from '../mail/messages';
import { appUrl, RESET_TTL_MINUTES, type AuthContext } from './context';
import { queueMail } from './mail';
import { hashPassword, hashToken, newLinkToken } from './secrets';

export const RESET_MESSAGES = {
  neutral: 'If your email is registered, you will receive a password reset link.',
  invalid: 'This password reset link is invalid or has already been used.',
  expired: 'This password reset link has expired. Please request a new one.',
  done: 'Your password has been reset. You can now log in with your new password.',
} as const;

/** Mails a single-use link to registered addresses only; the answer is the same either way. */
export async function forgotPassword(ctx: AuthContext, email: string): Promise<{ message: string }> {
  const user = await findUserByEmail(ctx.db, email);
  if (user) {
    const { token, tokenHash } = newLinkToken();
    const link = `${appUrl(ctx.config)}/reset-password?token=${encodeURIComponent(token)}`;
    await ctx.uow.run(async (tx, emit) => {
      await insertReset(tx, {
        userId: user.id,
        tokenHash,
        expiresAt: new Date(Date.now() + RESET_TTL_MINUTES * 60_000),
      });
      await queueMail(
        tx,
        emit,
        ctx.cipher,
        'password-reset',
        resetMail(user.email, user.name ?? user.username, link, RESET_TTL_MINUTES),
      );
    });
  }
  return { message: RESET_MESSAGES.neutral };
}

/**
 * Sets a new password with a valid, unused, unexpired token, then ends every session of the user
 * (a stolen cookie stops working) and every other outstanding reset link.
 */
export async function resetPassword(
  ctx: AuthContext,
  token: string,
  password: string,
): Promise<{ message: string }> {
  const reset = await findResetByTokenHash(ctx.db, hashToken(token));
  if (!reset || reset.usedAt) throw badRequest(RESET_MESSAGES.invalid);
  if (reset.expiresAt.getTime() < Date.now()) throw badRequest(RESET_MESSAGES.expired);
  const passwordHash = await hashPassword(password);
  await ctx.uow.run(async (tx) => {
    if (!(await consumeReset(tx, reset.id))) throw badRequest(RESET_MESSAGES.invalid);
    await setPasswordHash(tx, reset.userId, passwordHash);
    await invalidateResets(tx, reset.userId);
  });
  await ctx.sessions.revokeAll(reset.userId);
  return { message: RESET_MESSAGES.done };
}
