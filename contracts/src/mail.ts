import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { CacheBuster, IsoDateTime, TimezoneOffset } from './common';

/* The e-mail digest, reply drafts and sending (integrations service). */

/** One message of the e-mail digest. */
export const EmailItem = z.object({
  id: z.string(),
  threadId: z.string(),
  /** Sender's display name (or address when there is none). */
  from: z.string(),
  /** The full `From` header, `Name <address>`. */
  fromFull: z.string(),
  subject: z.string(),
  snippet: z.string(),
  /**
   * Sanitised HTML (scripts, handlers, forms, frames and styles removed; remote images held back as
   * `data-remote-src`). Only `GET /api/assist/emails/:id` carries it; the digest list does not.
   */
  body: z.string().optional(),
  /** The body holds remote images that were blocked (the dialog offers 'Show images'). */
  hasRemoteImages: z.boolean().optional(),
  date: IsoDateTime,
  /** Arrived since the start of yesterday in the user's time zone. */
  isNew: z.boolean(),
  needsReply: z.boolean(),
});
export type EmailItem = z.infer<typeof EmailItem>;

/**
 * GET /api/assist/emails?timezoneOffset=: the browser's `getTimezoneOffset()` (minutes, UTC minus
 * local), so "since yesterday" is the user's yesterday.
 */
export const DigestQuery = z.object({
  timezoneOffset: z
    .string()
    .regex(/^-?\d{1,3}$/, { error: 'timezoneOffset must be a whole number of minutes' })
    .transform(Number)
    .pipe(TimezoneOffset)
    .optional(),
  t: CacheBuster,
});
export type DigestQuery = z.infer<typeof DigestQuery>;

/** Path params of `/api/assist/emails/:id` (the mail account's message id). */
export const EmailIdParams = z.object({
  // Gmail's hex ids, an IMAP account's `i.<uidvalidity>.<uid>`, Graph's base64url ones (with `=`).
  id: z.string().regex(/^[A-Za-z0-9_.=-]{1,256}$/, { error: 'Invalid email id' }),
});
export type EmailIdParams = z.infer<typeof EmailIdParams>;

/** GET /api/assist/emails. `connected: false` (with no e-mails) makes the SPA show a connect prompt. */
export const EmailDigest = z.object({
  connected: z.boolean(),
  emails: z.array(EmailItem),
  stats: z.object({
    newSinceYesterday: z.number().int().nonnegative(),
    needingResponse: z.number().int().nonnegative(),
  }),
});
export type EmailDigest = z.infer<typeof EmailDigest>;

/** The nudge the digest offers for a thread waiting for an answer: a reply to the user's own last message. */
export const NudgeDraft = z.object({
  /** Whom the user wrote to (their To header), so the nudge goes to the other side. */
  to: z.string(),
  cc: z.string().optional(),
  /** The thread's subject with one 'Re: '. */
  subject: z.string(),
  body: z.string(),
  /** Sent or saved with this, the nudge lands in the thread (In-Reply-To/References set by the server). */
  threadId: z.string(),
});
export type NudgeDraft = z.infer<typeof NudgeDraft>;

/** A thread where the user wrote last, asked something, and has had no answer for some days. */
export const WaitingThread = z.object({
  threadId: z.string(),
  /** Whom the user is waiting for: the first recipient's name (or address), '+ n' when several. */
  to: z.string(),
  subject: z.string(),
  /** When the user last wrote in the thread (a sent nudge restarts it). */
  since: IsoDateTime,
  /** Whole days since then. */
  days: z.number().int().nonnegative(),
  nudge: NudgeDraft,
});
export type WaitingThread = z.infer<typeof WaitingThread>;

/**
 * GET /api/assist/waiting: 'Waiting for an answer', longest waiting first (at most 20). `days` is
 * the user's setting (followUpDays of the e-mail integration).
 */
export const WaitingAnswer = z.object({
  connected: z.boolean(),
  days: z.number().int().min(1).max(30),
  threads: z.array(WaitingThread),
});
export type WaitingAnswer = z.infer<typeof WaitingAnswer>;

/** POST /api/assist/email-draft: ask for an AI reply draft to a digest e-mail. */
export const EmailDraftBody = z.object({
  emailId: z.string().trim().min(1).max(256),
  threadId: z.string().trim().min(1).max(256),
});
export type EmailDraftBody = z.infer<typeof EmailDraftBody>;

/**
 * The drafted reply text for the user to edit: written by the model, or (with no model configured,
 * or when it failed) the polite template, which the SPA says.
 */
export const EmailDraftAnswer = z.object({ draft: z.string(), source: z.enum(['model', 'template']) });
export type EmailDraftAnswer = z.infer<typeof EmailDraftAnswer>;

/** E-mail priority (sent as the `Importance`/`X-Priority` headers). */
export const EmailPriority = z.enum(['low', 'normal', 'high']);
export type EmailPriority = z.infer<typeof EmailPriority>;

const emailFields = {
  /** Comma-separated recipients; the spec asks for no format check here. */
  to: z.string().trim().max(2000),
  cc: z.string().trim().max(2000).optional(),
  subject: z
    .string()
    .trim()
    .min(1, { error: 'Please enter a subject for your email' })
    .max(998, { error: 'Subject must be at most 998 characters' }),
  body: z
    .string()
    .trim()
    .min(1, { error: 'Please enter a message for your email' })
    .max(100_000, { error: 'Message must be at most 100000 characters' }),
  priority: EmailPriority.default('normal'),
  /** Reply inside this thread of the mail account (the digest's Send Response). */
  threadId: z.string().max(256).optional(),
};

/** An e-mail to send: a non-blank recipient is required. */
export const OutgoingEmail = z.object({
  ...emailFields,
  to: emailFields.to.min(1, { error: 'Please enter at least one recipient email address' }),
});
export type OutgoingEmail = z.infer<typeof OutgoingEmail>;

/**
 * An e-mail to save as a draft: the recipient may still be blank (spec section 5). This is the
 * route's body schema; without `?draft=true` the service must also check it with `OutgoingEmail`.
 */
export const OutgoingEmailDraft = z.object(emailFields);
export type OutgoingEmailDraft = z.infer<typeof OutgoingEmailDraft>;

/** POST /api/email/send?draft=true saves to the mail account's drafts instead of sending. */
export const SendQuery = z.object({
  draft: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type SendQuery = z.infer<typeof SendQuery>;

/** Answer of a send or draft save. */
export const SendAnswer = z.object({ success: z.boolean(), message: z.string() });
export type SendAnswer = z.infer<typeof SendAnswer>;

/**
 * Mail routes of the integrations service. A 409 says no e-mail account is connected (code
 * `not_connected`) or that it must be connected again (`reconnect_required`, e.g. a revoked grant);
 * 502 that the provider failed. Nothing is sent except by `sendEmail`.
 */
export const mailContract = defineContract({
  emails: {
    method: 'GET',
    path: '/api/assist/emails',
    query: DigestQuery,
    responses: { 200: EmailDigest, 400: ErrorBody, 401: ErrorBody },
    summary:
      'The cached digest kept fresh by accounts.sync (newest and needing a reply first, at most 50, without ' +
      'bodies); `connected: false` when no e-mail integration.',
  },
  email: {
    method: 'GET',
    path: '/api/assist/emails/:id',
    params: EmailIdParams,
    query: DigestQuery,
    responses: { 200: EmailItem, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
    summary: 'One cached e-mail with its sanitised body (the Email item dialog).',
  },
  waiting: {
    method: 'GET',
    path: '/api/assist/waiting',
    query: z.object({ t: CacheBuster }),
    responses: { 200: WaitingAnswer, 400: ErrorBody, 401: ErrorBody },
    summary:
      "Threads where the user wrote last, asked something and got no answer for the setting's days, each with a threaded nudge draft.",
  },
  emailDraft: {
    method: 'POST',
    path: '/api/assist/email-draft',
    body: EmailDraftBody,
    responses: {
      200: EmailDraftAnswer,
      400: ErrorBody,
      401: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      502: ErrorBody,
    },
  },
  sendEmail: {
    method: 'POST',
    path: '/api/email/send',
    query: SendQuery,
    body: OutgoingEmailDraft,
    responses: { 200: SendAnswer, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 502: ErrorBody },
    summary:
      'Sends (or with ?draft=true saves a draft) through the mail account. Never called by the assistant itself.',
  },
});
