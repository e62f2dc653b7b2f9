import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { Id, IdParams, IsoDateTime, LocalDate, Ok } from './common';

// ---- integrations ----

/** Connectable providers; `google` is the mail and calendar provider. */
export const Provider = z.enum(['google', 'slack', 'notion']);
export type Provider = z.infer<typeof Provider>;

/** What an integration is used for. */
export const IntegrationType = z.enum(['calendar', 'email', 'messages', 'documents']);
export type IntegrationType = z.infer<typeof IntegrationType>;

/** Which types each provider can serve (google: one integration per type). */
export const PROVIDER_TYPES: Readonly<Record<Provider, readonly IntegrationType[]>> = {
  google: ['calendar', 'email'],
  slack: ['messages'],
  notion: ['documents'],
};

/** Per-integration settings, with the spec's defaults filled in. */
export const IntegrationSettings = z.object({
  autoSync: z.boolean().default(true),
  notifyOnChanges: z.boolean().default(true),
  includeFullContent: z.boolean().default(false),
  /** Set by the server when syncing or refreshing the token failed; the detail page shows it. */
  error: z.string().optional(),
});
export type IntegrationSettings = z.infer<typeof IntegrationSettings>;

/** An integration as the API returns it (never its tokens). */
export const Integration = z.object({
  id: Id,
  provider: Provider,
  type: IntegrationType,
  /** True while a usable (or refreshable) token is stored. */
  connected: z.boolean(),
  contextualRules: z.string().nullable(),
  settings: IntegrationSettings,
  createdAt: IsoDateTime,
  /** Also the "last synced" time on the detail page. */
  updatedAt: IsoDateTime,
  expiresAt: IsoDateTime.nullable(),
});
export type Integration = z.infer<typeof Integration>;

/** GET /api/integrations?provider=&type=. */
export const IntegrationListQuery = z.object({
  provider: Provider.optional(),
  type: IntegrationType.optional(),
});
export type IntegrationListQuery = z.infer<typeof IntegrationListQuery>;

/** Path params of `/api/integrations/:provider/...`. */
export const ProviderParams = z.object({ provider: Provider });
export type ProviderParams = z.infer<typeof ProviderParams>;

/** POST /api/integrations/:provider/auth. */
export const AuthStartBody = z.object({ type: IntegrationType });
export type AuthStartBody = z.infer<typeof AuthStartBody>;

/** GET /api/integrations/:provider/direct-auth?type=. */
export const DirectAuthQuery = z.object({ type: IntegrationType });
export type DirectAuthQuery = z.infer<typeof DirectAuthQuery>;

/** GET /api/integrations/:provider/auth?type=&client_generated=true (the last-resort browser navigation). */
export const AuthRedirectQuery = z.object({
  type: IntegrationType,
  client_generated: z.enum(['true', 'false']).optional(),
});
export type AuthRedirectQuery = z.infer<typeof AuthRedirectQuery>;

/** The provider's consent page address, with a signed `state` bound to the user. */
export const AuthUrlAnswer = z.object({ authUrl: z.url() });
export type AuthUrlAnswer = z.infer<typeof AuthUrlAnswer>;

/**
 * POST /api/integrations/:provider/auth-complete (the SPA callback page hands over the code).
 * `userId` is accepted because the SPA sends it, but the session decides who the user is.
 */
export const AuthCompleteBody = z.object({
  code: z.string().trim().min(1, { error: 'Missing required OAuth parameters' }).max(2048),
  type: IntegrationType,
  userId: z.union([z.number(), z.string().max(64)]).optional(),
  clientRequest: z.boolean().optional(),
  state: z.string().max(2048).optional(),
});
export type AuthCompleteBody = z.infer<typeof AuthCompleteBody>;

/** GET /api/auth/google/callback: what the provider appends to the redirect. */
export const OAuthCallbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(2048).optional(),
  error: z.string().max(512).optional(),
});
export type OAuthCallbackQuery = z.infer<typeof OAuthCallbackQuery>;

/** PATCH /api/integrations/:id/settings. Unknown settings keys (including `error`) are dropped. */
export const SettingsPatchBody = z
  .object({
    settings: z
      .object({
        autoSync: z.boolean().optional(),
        notifyOnChanges: z.boolean().optional(),
        includeFullContent: z.boolean().optional(),
      })
      .optional(),
    contextualRules: z
      .string()
      .max(20_000, { error: 'Rules must be at most 20000 characters' })
      .nullable()
      .optional(),
  })
  .refine((b) => b.settings !== undefined || b.contextualRules !== undefined, {
    error: 'Provide settings or contextualRules',
  });
export type SettingsPatchBody = z.infer<typeof SettingsPatchBody>;

// ---- assist: e-mail digest and calendar ----

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
  /** Sanitised HTML; absent when the user keeps includeFullContent off. */
  body: z.string().optional(),
  date: IsoDateTime,
  /** Arrived since yesterday. */
  isNew: z.boolean(),
  needsReply: z.boolean(),
});
export type EmailItem = z.infer<typeof EmailItem>;

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

/** A start or end time: `dateTime` for timed events, `date` for all-day ones. */
export const EventTime = z.object({
  dateTime: IsoDateTime.optional(),
  date: LocalDate.optional(),
  timeZone: z.string().optional(),
});
export type EventTime = z.infer<typeof EventTime>;

/** A calendar event (an invitation when the user's responseStatus is needsAction). */
export const CalendarEvent = z.object({
  id: z.string(),
  summary: z.string(),
  location: z.string().nullish(),
  start: EventTime,
  end: EventTime.optional(),
  organizer: z.object({ displayName: z.string().optional(), email: z.string().optional() }).optional(),
  responseStatus: z.enum(['needsAction', 'declined', 'tentative', 'accepted']).optional(),
  htmlLink: z.string().optional(),
});
export type CalendarEvent = z.infer<typeof CalendarEvent>;

/** GET /api/assist/calendar. */
export const CalendarAnswer = z.object({ connected: z.boolean(), events: z.array(CalendarEvent) });
export type CalendarAnswer = z.infer<typeof CalendarAnswer>;

/** POST /api/assist/email-draft: ask for an AI reply draft to a digest e-mail. */
export const EmailDraftBody = z.object({
  emailId: z.string().trim().min(1).max(256),
  threadId: z.string().trim().min(1).max(256),
});
export type EmailDraftBody = z.infer<typeof EmailDraftBody>;

/** The drafted reply text for the user to edit. */
export const EmailDraftAnswer = z.object({ draft: z.string() });
export type EmailDraftAnswer = z.infer<typeof EmailDraftAnswer>;

// ---- e-mail sending and calendar events ----

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

/** Reminder choices in minutes before the event (0 = none). */
export const ReminderMinutes = z.union([
  z.literal(0),
  z.literal(10),
  z.literal(30),
  z.literal(60),
  z.literal(1440),
]);
export type ReminderMinutes = z.infer<typeof ReminderMinutes>;

/** A wall-clock moment as the event form picks it. */
export const EventMoment = z.object({
  date: LocalDate,
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Times must use the HH:mm format' }),
});
export type EventMoment = z.infer<typeof EventMoment>;

/** POST /api/calendar/events: an event the user confirmed (default today 18:00 to 19:00). */
export const CalendarEventDraft = z
  .object({
    title: z
      .string()
      .trim()
      .min(1, { error: 'Please enter a title for your event' })
      .max(200, { error: 'Title must be at most 200 characters' }),
    description: z.string().max(5000).optional(),
    start: EventMoment,
    end: EventMoment,
    location: z.string().trim().max(500).optional(),
    reminder: ReminderMinutes.default(30),
    /** IANA zone the wall-clock times are in, e.g. `Europe/Paris`; the account's zone when absent. */
    timeZone: z.string().max(64).optional(),
  })
  .refine((e) => `${e.start.date}T${e.start.time}` < `${e.end.date}T${e.end.time}`, {
    error: 'The event must end after it starts',
    path: ['end'],
  });
export type CalendarEventDraft = z.infer<typeof CalendarEventDraft>;

// ---- routes ----

/**
 * Public routes of the integrations service. 409 means the needed integration is not connected,
 * 502 that the provider failed or refused (e.g. revoked token), 503 that the provider is not configured.
 */
export const integrationsContract = defineContract({
  list: {
    method: 'GET',
    path: '/api/integrations',
    query: IntegrationListQuery,
    responses: { 200: z.array(Integration), 400: ErrorBody, 401: ErrorBody },
  },
  remove: {
    method: 'DELETE',
    path: '/api/integrations/:id',
    params: IdParams,
    responses: { 200: Ok, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
    summary: 'Disconnects: revokes the token at the provider when possible and deletes it.',
  },
  updateSettings: {
    method: 'PATCH',
    path: '/api/integrations/:id/settings',
    params: IdParams,
    body: SettingsPatchBody,
    responses: { 200: Integration, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  },
  startAuth: {
    method: 'POST',
    path: '/api/integrations/:provider/auth',
    params: ProviderParams,
    body: AuthStartBody,
    responses: { 200: AuthUrlAnswer, 400: ErrorBody, 401: ErrorBody, 503: ErrorBody },
  },
  directAuth: {
    method: 'GET',
    path: '/api/integrations/:provider/direct-auth',
    params: ProviderParams,
    query: DirectAuthQuery,
    responses: { 200: AuthUrlAnswer, 400: ErrorBody, 401: ErrorBody, 503: ErrorBody },
  },
  authRedirect: {
    method: 'GET',
    path: '/api/integrations/:provider/auth',
    params: ProviderParams,
    query: AuthRedirectQuery,
    responses: { 302: z.null(), 400: ErrorBody, 401: ErrorBody, 503: ErrorBody },
    summary: 'Browser navigation fallback: redirects to the provider consent page.',
  },
  authComplete: {
    method: 'POST',
    path: '/api/integrations/:provider/auth-complete',
    params: ProviderParams,
    body: AuthCompleteBody,
    responses: { 200: Integration, 400: ErrorBody, 401: ErrorBody, 502: ErrorBody, 503: ErrorBody },
    summary: 'Exchanges the code for tokens and stores them (encrypted); 400 on a bad or foreign state.',
  },
  oauthCallback: {
    method: 'GET',
    path: '/api/auth/google/callback',
    query: OAuthCallbackQuery,
    responses: { 302: z.null() },
    summary:
      'Provider redirect: completes the flow from the signed state, then redirects to ' +
      '/integrations?integration=success|error&provider=&type=&message=.',
  },
  emails: {
    method: 'GET',
    path: '/api/assist/emails',
    responses: { 200: EmailDigest, 401: ErrorBody, 502: ErrorBody },
    summary: 'The cached digest kept fresh by mail.sync; `connected: false` when no e-mail integration.',
  },
  calendar: {
    method: 'GET',
    path: '/api/assist/calendar',
    responses: { 200: CalendarAnswer, 401: ErrorBody, 502: ErrorBody },
    summary: 'Upcoming events and invitations needing a response; `connected: false` when no calendar.',
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
  createEvent: {
    method: 'POST',
    path: '/api/calendar/events',
    body: CalendarEventDraft,
    responses: { 201: CalendarEvent, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 502: ErrorBody },
  },
});
