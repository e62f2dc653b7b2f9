import type { RequestVerificationBody, User } from '@haven/contracts/auth';
import type { Tx } from '@haven/kit/db';
import { AppError, badRequest, conflict } from '@haven/kit/errors';
import type { Emit } from '@haven/kit/unit-of-work';
import {
  countWrongCode,
  deletePending,
  findPendingByEmail,
  findPendingByLinkToken,
  refreshPendingCode,
  upsertPending,
  usernameHeldByOther,
  type PendingRow,
} from '../db/verifications.repository';
import { noticeQueuedSince } from '../db/mail.repository';
import { findAccountConflicts, findUserByEmail, insertUser } from '../db/users.repository';
import { registrationAttemptMail, verificationMail } from '../mail/messages';
import { appUrl, CODE_TTL_MINUTES, MAX_CODE_ATTEMPTS, presentUser, type AuthContext } from './context';
import { queueMail } from './mail';
import { hashCode, hashPassword, hashToken, newLinkToken, newVerificationCode, sameHash } from './secrets';

export const MESSAGES = {
  emailTaken: 'An account with this email already exists',
  usernameTaken: 'This username is already taken',
  codeSent: 'Verification code sent. Please check your email.',
  wrongCode: 'Verification failed. Please check your code and try again.',
  expired: 'This verification code has expired. Please request a new one.',
  locked: 'Too many incorrect codes. Please request a new code.',
  noPending: 'No pending registration for this email. Please register again.',
  verified: 'Email verified. Welcome to Haven!',
  resent: 'If a registration is pending for this email, a new code has been sent.',
} as const;

const expiry = () => new Date(Date.now() + CODE_TTL_MINUTES * 60_000);

/** Mails a fresh code and link for `pending`, inside the caller's unit of work. */
async function mailCode(
  ctx: AuthContext,
  tx: Tx,
  emit: Emit,
  pending: { email: string; name: string | null; username: string },
  code: string,
  token: string,
) {
  const link = `${appUrl(ctx.config)}/api/verify-email?token=${encodeURIComponent(token)}`;
  await queueMail(
    tx,
    emit,
    ctx.cipher,
    'verification',
    verificationMail(pending.email, pending.name ?? pending.username, code, link, CODE_TTL_MINUTES),
  );
}

/**
 * Step 1 of registration: checks the username and e-mail are free, stores the pending registration
 * (password already hashed, code and link hashed) and mails the code, all in one transaction.
 */
export async function requestVerification(
  ctx: AuthContext,
  input: RequestVerificationBody,
): Promise<{ message: string }> {
  const { email, username } = input;
  const taken = await findAccountConflicts(ctx.db, email, username);
  // Usernames are public, so a taken one may say so; whether an address has an account may not.
  if (taken.username) throw conflict(MESSAGES.usernameTaken);
  const passwordHash = await hashPassword(input.password);
  if (taken.email) {
    await noticeRegistrationAttempt(ctx, email);
    return { message: MESSAGES.codeSent };
  }
  const code = newVerificationCode();
  const link = newLinkToken();
  await ctx.uow.run(async (tx, emit) => {
    if (await usernameHeldByOther(tx, username, email)) throw conflict(MESSAGES.usernameTaken);
    await upsertPending(tx, {
      email,
      username,
      name: input.name ?? null,
      passwordHash,
      codeHash: hashCode(ctx.codeKey, email, code),
      linkTokenHash: link.tokenHash,
      expiresAt: expiry(),
    });
    await mailCode(ctx, tx, emit, { email, username, name: input.name ?? null }, code, link.token);
  });
  return { message: MESSAGES.codeSent };
}

/** How often, at most, the owner of an address hears that someone tried to register with it. */
const NOTICE_EVERY_MINUTES = 60;

/**
 * Someone registered with an address that has an account: the answer is the one a new address
 * gets, and the owner is told by mail (at most once an hour, so the form cannot be used to flood
 * them).
 */
async function noticeRegistrationAttempt(ctx: AuthContext, email: string): Promise<void> {
  const noticeKey = hashCode(ctx.codeKey, email, 'registration-attempt');
  await ctx.uow.run(async (tx, emit) => {
    if (await noticeQueuedSince(tx, noticeKey, NOTICE_EVERY_MINUTES)) return;
    const owner = await findUserByEmail(tx, email);
    if (!owner) return;
    const base = appUrl(ctx.config);
    await queueMail(
      tx,
      emit,
      ctx.cipher,
      'registration-attempt',
      registrationAttemptMail(email, owner.name ?? owner.username, `${base}/auth`, `${base}/reset-password`),
      noticeKey,
    );
  });
}

/** Turns a pending registration into an account; a race with another account is a 409. */
async function createAccount(ctx: AuthContext, pending: PendingRow): Promise<User> {
  return ctx.uow.run(async (tx) => {
    const taken = await findAccountConflicts(tx, pending.email, pending.username);
    if (taken.email) throw conflict(MESSAGES.emailTaken);
    if (taken.username) throw conflict(MESSAGES.usernameTaken);
    const user = await insertUser(tx, {
      username: pending.username,
      name: pending.name,
      email: pending.email,
      passwordHash: pending.passwordHash,
    });
    await deletePending(tx, pending.id);
    return presentUser(user);
  });
}

/**
 * Step 2 with the code: a wrong code counts against the registration, which locks after five until
 * a resend; an expired code says so. Success creates the account.
 */
export async function verifyWithCode(ctx: AuthContext, email: string, code: string): Promise<User> {
  const pending = await findPendingByEmail(ctx.db, email);
  if (!pending) throw badRequest(MESSAGES.noPending);
  if (pending.attempts >= MAX_CODE_ATTEMPTS) throw badRequest(MESSAGES.locked);
  if (!sameHash(pending.codeHash, hashCode(ctx.codeKey, email, code))) {
    await countWrongCode(ctx.db, pending.id);
    throw badRequest(MESSAGES.wrongCode);
  }
  if (pending.expiresAt.getTime() < Date.now()) throw badRequest(MESSAGES.expired);
  return createAccount(ctx, pending);
}

export type LinkOutcome =
  { ok: true; user: User } | { ok: false; reason: 'invalid_token' | 'expired_token' | 'update_failed' };

/** Step 2 with the e-mailed link. */
export async function verifyWithLink(ctx: AuthContext, token: string): Promise<LinkOutcome> {
  const pending = await findPendingByLinkToken(ctx.db, hashToken(token));
  if (!pending) return { ok: false, reason: 'invalid_token' };
  if (pending.expiresAt.getTime() < Date.now()) return { ok: false, reason: 'expired_token' };
  try {
    return { ok: true, user: await createAccount(ctx, pending) };
  } catch (err) {
    // An account that appeared for this e-mail or username since the link was sent: the link can
    // no longer create one. Anything else (the database gone) is not the link's fault: it is thrown.
    if (err instanceof AppError && err.status === 409) return { ok: false, reason: 'update_failed' };
    throw err;
  }
}

/** A fresh code and link for a pending registration (which also lifts the lock). Neutral answer. */
export async function resendVerification(ctx: AuthContext, email: string): Promise<{ message: string }> {
  const pending = await findPendingByEmail(ctx.db, email);
  if (pending) {
    const code = newVerificationCode();
    const link = newLinkToken();
    await ctx.uow.run(async (tx, emit) => {
      await refreshPendingCode(tx, pending.id, {
        codeHash: hashCode(ctx.codeKey, email, code),
        linkTokenHash: link.tokenHash,
        expiresAt: expiry(),
      });
      await mailCode(ctx, tx, emit, pending, code, link.token);
    });
  }
  return { message: MESSAGES.resent };
}
