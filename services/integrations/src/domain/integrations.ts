import type { UnitOfWork } from '@haven/kit/unit-of-work';
import type { CalendarEvent, CalendarEventDraft } from '@haven/contracts/calendar';
import {
  isOAuthProvider,
  PROVIDER_TYPES,
  type Integration,
  type IntegrationListQuery,
  type IntegrationType,
  type OAuthProvider,
  type Provider,
  type ProviderStatus,
  type SettingsPatchBody,
} from '@haven/contracts/integrations';
import type { OutgoingEmailDraft, SendAnswer } from '@haven/contracts/mail';
import type { FieldCipher } from '@haven/kit/crypto';
import { badGateway, badRequest, unavailable } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import type { Db } from '@haven/kit/db';
import {
  connectIntegration,
  deleteIntegration,
  listIntegrationsOfUser,
  updateIntegrationSettings,
  type IntegrationRow,
} from '../db/integrations.repository';
import { markThreadAnswered, newestMessageInThread } from '../db/mail-messages.repository';
import { mailContext } from './contexts';
import { CachedMail } from './mail/cached-mail';
import { accountContext, type Accounts, MESSAGES, tokenContext, rulesContext } from './accounts';
import type { FollowUps } from './mail/follow-ups';
import type { Providers } from './providers';

const notConfigured = (provider: Provider) =>
  `${provider.charAt(0).toUpperCase()}${provider.slice(1)} is not configured on this server`;
import type { CalendarSourceOf } from './calendar/source';
import type { GoogleSettings } from './google';
import type { MailSourceOf } from './mail/source';
import { composeRaw } from './mime';
import type { StateStore } from './oauth-state';

export interface IntegrationsDeps {
  db: Db;
  uow: UnitOfWork;
  cipher: FieldCipher;
  states: StateStore;
  google: GoogleSettings;
  accounts: Accounts;
  followUps: FollowUps;
  providers: Providers;
  /** The mail account's source, over a signed-in client (sending and drafts). */
  mailSourceOf: MailSourceOf;
  /** The calendar account's source, over a signed-in client (creating events). */
  calendarSourceOf: CalendarSourceOf;
  /** How often a connected account is synced (the first sync follows the connection at once). */
  syncIntervalMs: number;
  /** Stops the provider's push for an account that goes (a Gmail watch, a Graph subscription). */
  stopPush(row: IntegrationRow): Promise<void>;
  log: Logger;
}

export function createIntegrations(deps: IntegrationsDeps) {
  const { db, cipher, accounts, providers, stopPush, log } = deps;
  const { present, owned } = accounts;

  return {
    present,

    /** Each provider, and whether this server has its client id and secret. */
    providers: (): ProviderStatus[] =>
      (Object.keys(PROVIDER_TYPES) as Provider[]).map((provider) => ({
        provider,
        // A mail server needs nothing of this server's configuration.
        configured: !isOAuthProvider(provider) || providers[provider].configured,
      })),

    async list(userId: number, query: IntegrationListQuery): Promise<Integration[]> {
      const rows = await listIntegrationsOfUser(db, userId, { provider: query.provider, type: query.type });
      return rows.map(present);
    },

    ...createConsents(deps),

    /** Disconnects: revokes the grant at the provider when it can, then deletes the account and its cache. */
    async remove(userId: number, id: number): Promise<void> {
      const row = await owned(userId, id);
      // While the tokens still work: the push is stopped first.
      await stopPush(row);
      const token = row.refreshTokenEnc ?? row.accessTokenEnc;
      const oauth = isOAuthProvider(row.provider) ? providers[row.provider] : undefined;
      if (token && oauth?.configured) {
        await oauth
          .revoke(cipher.decrypt(token, tokenContext(userId)))
          .catch((err: unknown) =>
            log.warn({ err, integrationId: id }, 'token revocation failed; deleting anyway'),
          );
      }
      await deleteIntegration(db, id);
    },

    /** Disconnects every account of the user (account deletion): each revoked, then deleted. */
    async removeAll(userId: number): Promise<void> {
      const rows = await listIntegrationsOfUser(db, userId);
      for (const { id } of rows) await this.remove(userId, id);
    },

    async updateSettings(userId: number, id: number, patch: SettingsPatchBody): Promise<Integration> {
      const row = await owned(userId, id);
      if (patch.settings?.followUpDays !== undefined && row.type !== 'email')
        throw badRequest('followUpDays applies to e-mail integrations only');
      const updated = await updateIntegrationSettings(db, id, {
        ...(patch.settings ? { settings: { ...row.settings, ...patch.settings } } : {}),
        ...(patch.contextualRules !== undefined
          ? {
              contextualRulesEnc: patch.contextualRules
                ? cipher.encrypt(patch.contextualRules, rulesContext(userId))
                : null,
            }
          : {}),
      });
      return present(updated);
    },

    ...createAccountActions(deps),
  };
}
export type Integrations = ReturnType<typeof createIntegrations>;

/** Consents: the provider's page for a type, and storing what it granted with the first sync. */
function createConsents({
  uow,
  cipher,
  states,
  google,
  providers,
  syncIntervalMs,
  log,
  accounts,
}: IntegrationsDeps) {
  const { present } = accounts;
  return {
    /** The consent address for `type`, carrying a fresh single-use state bound to the user. */
    async authUrl(
      userId: number,
      provider: OAuthProvider,
      type: IntegrationType,
      redirect: 'local' | 'server' = 'server',
    ): Promise<string> {
      if (!PROVIDER_TYPES[provider].includes(type))
        throw badRequest(`${provider} does not offer ${type} integrations`);
      const oauth = providers[provider];
      if (!oauth.configured) throw unavailable(notConfigured(provider), 0);
      const redirectUri = redirect === 'local' ? `${google.appUrl}/direct-${provider}-callback` : undefined;
      const state = await states.issue({ userId, provider, type, redirectUri });
      return oauth.consentUrl(type, state, redirectUri);
    },

    /**
     * Completes a consent: the state must be valid, unused, unexpired, issued for this provider, and
     * the signed-in user's when someone is signed in. Reconnecting updates the same row and clears a
     * past error; the first sync is queued with it.
     */
    async complete(
      sessionUserId: number | null,
      provider: OAuthProvider,
      code: string,
      state: string | undefined,
    ): Promise<Integration> {
      const claims = await states.consume(state);
      if (
        !claims ||
        claims.provider !== provider ||
        (sessionUserId !== null && claims.userId !== sessionUserId)
      )
        throw badRequest(MESSAGES.invalidState);
      const oauth = providers[provider];
      if (!oauth.configured) throw unavailable(notConfigured(provider), 0);
      let grant;
      try {
        grant = await oauth.exchange(code, claims.redirectUri ?? undefined, claims.type as IntegrationType);
      } catch (err) {
        log.warn({ err, provider }, 'the provider refused the authorization code');
        throw badGateway(MESSAGES.providerRefused);
      }
      const enc = (value: string | null, context = tokenContext(claims.userId)) =>
        value ? cipher.encrypt(value, context) : null;
      const values = {
        accessTokenEnc: enc(grant.accessToken),
        expiresAt: grant.expiresAt,
        scope: grant.scope,
        accountEnc: enc(grant.account, accountContext(claims.userId)),
      };
      // The row and its first sync are one unit of work: the sync runs once the consent is stored.
      const row = await uow.run(async (tx, emit) => {
        const stored = await connectIntegration(tx, {
          userId: claims.userId,
          provider: claims.provider,
          type: claims.type,
          ...values,
          // Google sends a refresh token only on some consents: a reconnect keeps the one stored otherwise.
          refreshTokenEnc: enc(grant.refreshToken),
          nextSyncAt: new Date(Date.now() + syncIntervalMs),
        });
        await emit('accounts.sync', { integrationId: stored.id, request: stored.syncRequest });
        return stored;
      });
      return present(row);
    },
  };
}

/** What the user does through an account: send or draft a mail, create an event. */
function createAccountActions({
  db,
  cipher,
  accounts,
  followUps,
  mailSourceOf,
  calendarSourceOf,
}: IntegrationsDeps) {
  const { onAccount } = accounts;
  /**
   * The headers that make a reply land in its thread: under the user's own last message when the
   * thread waits for an answer (a nudge), else under the newest cached message of that thread.
   */
  async function threading(userId: number, integrationId: number, threadId: string | undefined) {
    if (!threadId) return {};
    const nudged = await followUps.threading(userId, integrationId, threadId);
    if (nudged) return nudged;
    const last = await newestMessageInThread(db, userId, integrationId, threadId);
    if (!last) return {};
    const cached = CachedMail.parse(JSON.parse(cipher.decrypt(last.dataEnc, mailContext(userId))));
    if (!cached.messageIdHeader) return {};
    return {
      inReplyTo: cached.messageIdHeader,
      references: [cached.references, cached.messageIdHeader].filter(Boolean).join(' '),
    };
  }

  return {
    /** Sends through the mail account, or saves a draft there. Nothing is ever sent but by this explicit call. */
    async sendEmail(userId: number, email: OutgoingEmailDraft, draft: boolean): Promise<SendAnswer> {
      const row = await accounts.usable(userId, 'email');
      const raw = await composeRaw({ ...email, ...(await threading(userId, row.id, email.threadId)) });
      await onAccount(row, async () => {
        const source = mailSourceOf(row);
        try {
          await (draft ? source.saveDraft(raw, email.threadId) : source.send(raw, email.threadId));
        } finally {
          await source.close?.();
        }
      });
      if (draft) return { success: true, message: 'Draft saved' };
      // The user has answered the thread: it no longer waits for a reply (the next sync agrees),
      // and a question of theirs waiting for an answer waits anew from now (a nudge).
      if (email.threadId) await followUps.restart(userId, row.id, email.threadId);
      if (email.threadId) await markThreadAnswered(db, userId, row.id, email.threadId);
      return { success: true, message: 'Email sent' };
    },

    /** Creates a real event, with the reminder as a popup override. */
    async createEvent(userId: number, event: CalendarEventDraft): Promise<CalendarEvent> {
      const row = await accounts.usable(userId, 'calendar');
      return onAccount(row, () => calendarSourceOf(row).create(event));
    },
  };
}
