import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { Id, noNul, Ok } from './common';

// ---- field rules (messages are the spec's, section 5) ----

/** An e-mail address, trimmed and lower-cased so uniqueness does not depend on case. */
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { error: 'Email must be at most 254 characters', abort: true })
  .pipe(z.email({ error: 'Please enter a valid email address' }));
export type Email = z.infer<typeof Email>;

/** A password as typed: never trimmed, 6..200 characters. */
export const Password = z
  .string()
  .min(6, { error: 'Password must be at least 6 characters' })
  .max(200, { error: 'Password must be at most 200 characters' });

/** A username: 3..40 characters from letters, digits, `_`, `.` and `-`. */
export const Username = z
  .string()
  .trim()
  .min(3, { error: 'Username must be at least 3 characters' })
  .max(40, { error: 'Username must be at most 40 characters' })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'Username may only contain letters, digits, _ . and -' });

/** An optional display name; blank or null becomes undefined. */
export const DisplayName = noNul(z.string().trim().max(100, { error: 'Name must be at most 100 characters' }))
  .nullish()
  .transform((v) => (v ? v : undefined));

/** A single-use token from an e-mailed link. */
const LinkToken = z.string().trim().min(1, { error: 'Token is required' }).max(512);

/** A 6-digit verification code. */
export const VerificationCode = z
  .string()
  .trim()
  .min(6, { error: 'Verification code must be at least 6 digits' })
  .max(6, { error: 'Verification code cannot exceed 6 digits' })
  .regex(/^\d+$/, { error: 'Verification code must contain digits only' });

// ---- answers ----

/** The public user: exactly what may leave the auth service (never the password hash or tokens). */
export const User = z.object({
  id: Id,
  username: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  isEmailVerified: z.boolean(),
});
export type User = z.infer<typeof User>;

/** GET /api/session: who is signed in on this browser, `null` for a visitor. */
export const SessionAnswer = z.object({ user: User.nullable() });
export type SessionAnswer = z.infer<typeof SessionAnswer>;

/** A plain `{ message }` answer. */
export const MessageAnswer = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof MessageAnswer>;

/** Answer of a successful verification: the account now exists and the session cookie is set. */
export const VerifyEmailAnswer = z.object({ message: z.string(), user: User });
export type VerifyEmailAnswer = z.infer<typeof VerifyEmailAnswer>;

/** Why a link verification failed; the link route redirects to `/verify-email?error=true&reason=...`. */
export const VerifyLinkReason = z.enum(['invalid_token', 'expired_token', 'user_not_found', 'update_failed']);
export type VerifyLinkReason = z.infer<typeof VerifyLinkReason>;

// ---- request bodies ----

/** POST /api/login. */
export const LoginBody = z.object({ email: Email, password: Password });
export type LoginBody = z.infer<typeof LoginBody>;

/**
 * POST /api/request-verification: starts a pending registration and e-mails a code.
 * `isEmailVerified` is accepted because the SPA sends it, but the server never trusts it.
 */
export const RequestVerificationBody = z.object({
  username: Username,
  name: DisplayName,
  email: Email,
  password: Password,
  isEmailVerified: z.boolean().optional().default(false),
});
export type RequestVerificationBody = z.infer<typeof RequestVerificationBody>;

/** POST /api/register: same payload as request-verification. */
export const RegisterBody = RequestVerificationBody;
export type RegisterBody = z.infer<typeof RegisterBody>;

/** POST /api/verify-email: either the link token or the e-mail plus its 6-digit code. */
export const VerifyEmailBody = z.union([
  z.object({ token: LinkToken }),
  z.object({ email: Email, code: VerificationCode }),
]);
export type VerifyEmailBody = z.infer<typeof VerifyEmailBody>;

/** POST /api/resend-verification. */
export const ResendVerificationBody = z.object({ email: Email });
export type ResendVerificationBody = z.infer<typeof ResendVerificationBody>;

/** POST /api/forgot-password. */
export const ForgotPasswordBody = z.object({ email: Email });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

/** POST /api/reset-password. */
export const ResetPasswordBody = z.object({ token: LinkToken, password: Password });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** GET /api/verify-email?token=: a missing token still redirects (reason invalid_token). */
export const VerifyLinkQuery = z.object({ token: z.string().max(512).optional() });
export type VerifyLinkQuery = z.infer<typeof VerifyLinkQuery>;

// ---- SPA forms (the server never sees confirmPassword) ----

/** The register form: the request-verification body plus a matching confirmation. */
export const RegisterForm = z
  .object({
    ...RequestVerificationBody.shape,
    confirmPassword: z.string().min(6, { error: 'Password must be at least 6 characters' }),
  })
  .refine((f) => f.password === f.confirmPassword, {
    error: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof RegisterForm>;

/** The new-password form on `/reset-password?token=`. */
export const ResetPasswordForm = z
  .object({
    password: Password,
    confirmPassword: z.string().min(6, { error: 'Password must be at least 6 characters' }),
  })
  .refine((f) => f.password === f.confirmPassword, {
    error: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>;

/** DELETE /api/user: the password confirms that the owner asks. */
export const DeleteAccountBody = z.object({
  password: z.string().min(1, { error: 'Please enter your password' }).max(1024),
});
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

// ---- routes ----

/** Public routes of the auth service. Answers that set or clear the session cookie say so. */
export const authContract = defineContract({
  currentUser: {
    method: 'GET',
    path: '/api/user',
    responses: { 200: User, 401: ErrorBody },
    summary: 'The signed-in user; 401 means signed out.',
  },
  session: {
    method: 'GET',
    path: '/api/session',
    responses: { 200: SessionAnswer },
    summary:
      'Public: the signed-in user, or `{ user: null }` for a visitor or a dead session. The SPA asks this at start, so a visitor sees no failed request.',
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/api/user',
    body: DeleteAccountBody,
    responses: { 200: Ok, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
    summary:
      'Signs the user out everywhere and deletes the account: every service deletes its data, the account row last.',
  },
  login: {
    method: 'POST',
    path: '/api/login',
    body: LoginBody,
    responses: { 200: User, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
    summary: 'Sets the session cookie. 401 for wrong credentials and for an unverified e-mail alike.',
  },
  register: {
    method: 'POST',
    path: '/api/register',
    body: RegisterBody,
    responses: { 200: MessageAnswer, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
    summary:
      'The same verified flow as request-verification: e-mails a code; the account exists once verified.',
  },
  logout: {
    method: 'POST',
    path: '/api/logout',
    responses: { 200: Ok },
    summary: 'Revokes the session and clears the cookie; succeeds without a session too.',
  },
  requestVerification: {
    method: 'POST',
    path: '/api/request-verification',
    body: RequestVerificationBody,
    responses: { 200: MessageAnswer, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
    summary: 'Stores a pending registration and e-mails a 6-digit code and a link.',
  },
  verifyEmail: {
    method: 'POST',
    path: '/api/verify-email',
    body: VerifyEmailBody,
    responses: { 200: VerifyEmailAnswer, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
    summary: 'Creates the account from the pending registration and signs the user in.',
  },
  verifyEmailLink: {
    method: 'GET',
    path: '/api/verify-email',
    query: VerifyLinkQuery,
    responses: { 302: z.null() },
    summary:
      'Link from the e-mail: redirects to /verify-email?success=true or ?error=true&reason=<VerifyLinkReason>.',
  },
  resendVerification: {
    method: 'POST',
    path: '/api/resend-verification',
    body: ResendVerificationBody,
    responses: { 200: MessageAnswer, 400: ErrorBody, 429: ErrorBody },
    summary: 'Sends a fresh code; the answer does not reveal whether a registration is pending.',
  },
  forgotPassword: {
    method: 'POST',
    path: '/api/forgot-password',
    body: ForgotPasswordBody,
    responses: { 200: MessageAnswer, 400: ErrorBody, 429: ErrorBody },
    summary: 'Always the neutral "If your email is registered, ..." message.',
  },
  resetPassword: {
    method: 'POST',
    path: '/api/reset-password',
    body: ResetPasswordBody,
    responses: { 200: MessageAnswer, 400: ErrorBody, 429: ErrorBody },
    summary: 'Sets the new password and revokes every session of the user. 400 invalid or expired token.',
  },
});
