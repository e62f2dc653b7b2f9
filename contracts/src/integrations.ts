import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { Id, IdParams, IsoDateTime, Ok } from './common';
import { CalendarServerAccountBody, MailServerAccountBody } from './mail-servers';

/**
 * Providers connected by their OAuth consent; `google` and `microsoft` (Microsoft 365 and
 * Outlook.com, through Microsoft Graph) are mail and calendar providers.
 */
export const OAuthProvider = z.enum(['google', 'microsoft', 'slack', 'notion']);
export type OAuthProvider = z.infer<typeof OAuthProvider>;

/**
 * Connectable providers: the OAuth ones; `imap`, a mail account reached by its servers (IMAP to
 * read, SMTP to send); and `caldav`, a calendar reached by its CalDAV server; both with an app
 * password (see mail-servers.ts).
 */
export const Provider = z.enum([...OAuthProvider.options, 'imap', 'caldav']);
export type Provider = z.infer<typeof Provider>;

/** Whether a provider connects by its OAuth consent (else by its servers and an app password). */
export const isOAuthProvider = (provider: string): provider is OAuthProvider =>
  (OAuthProvider.options as readonly string[]).includes(provider);

/** What an integration is used for. */
export const IntegrationType = z.enum(['calendar', 'email', 'messages', 'documents']);
export type IntegrationType = z.infer<typeof IntegrationType>;

/** Which types each provider can serve (google: one integration per type). */
export const PROVIDER_TYPES: Readonly<Record<Provider, readonly IntegrationType[]>> = {
  google: ['calendar', 'email'],
  microsoft: ['calendar', 'email'],
  slack: ['messages'],
  notion: ['documents'],
  imap: ['email'],
  caldav: ['calendar'],
};

/** The spec's default contextual-rule templates (section 9), as 'Use Default Rules' fills them in. */
export const DEFAULT_RULES: Readonly<Record<IntegrationType, string>> = {
  email: [
    '- Always ask me before saving or sending a draft.',
    '- Never include sensitive information (passwords, health or financial details) in a reply.',
    '- Use clear, professional language.',
    '- Include enough context that the reply stands on its own.',
  ].join('\n'),
  calendar: [
    '- No meetings before 9am or after 5pm.',
    '- Every meeting gets a short agenda in its description.',
    '- Meetings last 30 minutes unless I say otherwise.',
    '- Work events go on weekdays only.',
  ].join('\n'),
  messages: [
    '- Only surface messages that mention me or are sent to me directly.',
    '- Suggest short, friendly replies.',
  ].join('\n'),
  documents: ['- Prefer pages I edited recently.', '- Quote titles exactly.'].join('\n'),
};

/** Days without an answer before a question the user sent is 'Waiting for an answer', unless set. */
export const FOLLOW_UP_DAYS = 3;

/** Per-integration settings, with the spec's defaults filled in. */
export const IntegrationSettings = z.object({
  autoSync: z.boolean().default(true),
  notifyOnChanges: z.boolean().default(true),
  includeFullContent: z.boolean().default(false),
  /** Set by the server when syncing or refreshing the token failed; the detail page shows it. */
  error: z.string().optional(),
  /** Notion: the page under which 'Save to Notion' creates pages, chosen once. */
  parentPageId: z.string().optional(),
  parentPageTitle: z.string().optional(),
  /**
   * E-mail: after how many days without an answer a question the user sent is listed under
   * 'Waiting for an answer' ({@link FOLLOW_UP_DAYS} when never set).
   */
  followUpDays: z.number().int().min(1).max(30).optional(),
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
  /**
   * What the account let the app do, as the provider granted it (Google's scope addresses, Slack's
   * scope names); empty when the provider does not say (Notion). The detail page puts it in words.
   */
  scopes: z.array(z.string()).default([]),
});
export type Integration = z.infer<typeof Integration>;

/** Whether this server has a provider's OAuth client id and secret, so that connecting it can work. */
export const ProviderStatus = z.object({ provider: Provider, configured: z.boolean() });
export type ProviderStatus = z.infer<typeof ProviderStatus>;

/** GET /api/integrations/providers: every provider, configured or not. */
export const ProvidersAnswer = z.object({ providers: z.array(ProviderStatus) });
export type ProvidersAnswer = z.infer<typeof ProvidersAnswer>;

/** GET /api/integrations?provider=&type=. */
export const IntegrationListQuery = z.object({
  provider: Provider.optional(),
  type: IntegrationType.optional(),
});
export type IntegrationListQuery = z.infer<typeof IntegrationListQuery>;

/** Path params of `/api/integrations/:provider/...` (the consent routes: OAuth providers only). */
export const ProviderParams = z.object({ provider: OAuthProvider });
export type ProviderParams = z.infer<typeof ProviderParams>;

/** POST /api/integrations/:provider/auth. */
export const AuthStartBody = z.object({ type: IntegrationType });
export type AuthStartBody = z.infer<typeof AuthStartBody>;

/**
 * GET /api/integrations/:provider/direct-auth?type=&redirect=. `local` returns the consent to the
 * SPA's `/direct-{provider}-callback` page (the 'Use Alternative Redirect' choice), `server` to the
 * server callback.
 */
export const DirectAuthQuery = z.object({
  type: IntegrationType,
  redirect: z.enum(['local', 'server']).default('server'),
});
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

const daysError = { error: 'followUpDays must be a whole number of days from 1 to 30' };

/** PATCH /api/integrations/:id/settings. Unknown settings keys (including `error`) are dropped. */
export const SettingsPatchBody = z
  .object({
    settings: z
      .object({
        autoSync: z.boolean().optional(),
        notifyOnChanges: z.boolean().optional(),
        includeFullContent: z.boolean().optional(),
        parentPageId: z.string().trim().min(1).max(64).optional(),
        parentPageTitle: z.string().trim().max(200).optional(),
        followUpDays: z.number(daysError).int(daysError).min(1, daysError).max(30, daysError).optional(),
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

/**
 * Routes of the integrations service that connect and manage accounts. 503 means the provider is not
 * configured on this server.
 */
export const integrationsContract = defineContract({
  providers: {
    method: 'GET',
    path: '/api/integrations/providers',
    responses: { 200: ProvidersAnswer, 401: ErrorBody },
    summary:
      'Which providers this server can connect (it has their client id and secret); the SPA offers ' +
      'no Connect for the others.',
  },
  list: {
    method: 'GET',
    path: '/api/integrations',
    query: IntegrationListQuery,
    responses: { 200: z.array(Integration), 400: ErrorBody, 401: ErrorBody },
  },
  connectMailServer: {
    method: 'POST',
    path: '/api/integrations/mail-server',
    body: MailServerAccountBody,
    responses: { 201: Integration, 400: ErrorBody, 401: ErrorBody, 422: ErrorBody },
    summary:
      'Connects a mail account by its IMAP and SMTP servers and an app password, after signing in to ' +
      'both; 422 `server_refused` says what each server answered (issues `imap`, `smtp`).',
  },
  connectCalendarServer: {
    method: 'POST',
    path: '/api/integrations/calendar-server',
    body: CalendarServerAccountBody,
    responses: { 201: Integration, 400: ErrorBody, 401: ErrorBody, 422: ErrorBody },
    summary:
      'Connects a calendar by its CalDAV server and an app password, after signing in and finding its ' +
      'calendars; 422 `server_refused` says what the server answered (issue `caldav`).',
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
    path: '/api/auth/:provider/callback',
    params: ProviderParams,
    query: OAuthCallbackQuery,
    responses: { 302: z.null() },
    summary:
      'Provider redirect: completes the flow from the signed state, then redirects to ' +
      '/integrations?integration=success|error&provider=&type=&message=.',
  },
});
