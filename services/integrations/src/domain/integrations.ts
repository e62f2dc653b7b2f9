import { and, eq, sql } from 'drizzle-orm';
import type { CalendarEvent, CalendarEventDraft } from '@haven/contracts/calendar';
import {
  IntegrationSettings,
  PROVIDER_TYPES,
  type Integration,
  type IntegrationListQuery,
  type IntegrationType,
  type Provider,
  type SettingsPatchBody,
} from '@haven/contracts/integrations';
import type { OutgoingEmailDraft, SendAnswer } from '@haven/contracts/mail';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { badGateway, badRequest, conflict, notFound, unavailable } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import { integrations } from '../db/schema';
import {
  calendarOf,
  gmailOf,
  oauthClient,
  scopesFor,
  type GoogleOAuthClient,
  type GoogleSettings,
} from './google';
import { composeRaw } from './mime';
import type { StateStore } from './oauth-state';

type Row = typeof integrations.$inferSelect;

export const MESSAGES = {
  invalidState: 'Invalid state parameter',
  notConfigured: 'Google is not configured on this server',
  providerRefused: 'Failed to complete the integration',
  noEmail: 'No email account is connected. Connect Google mail on the Integrations page first.',
  noCalendar: 'No calendar is connected. Connect Google calendar on the Integrations page first.',
  revoked: 'Google no longer accepts this connection. Please reconnect.',
  providerFailed: 'Google did not complete the request. Please try again.',
} as const;

const tokenContext = (userId: number) => `integrations.token:${userId}`;
const rulesContext = (userId: number) => `integrations.rules:${userId}`;

export interface IntegrationsDeps {
  db: Db;
  cipher: FieldCipher;
  states: StateStore;
  google: GoogleSettings;
  log: Logger;
}

/** Whether a Google error says the grant itself is gone (revoked, expired, or never valid). */
function grantLost(err: unknown): boolean {
  const data = (err as { response?: { data?: { error?: unknown } } }).response?.data;
  return data?.error === 'invalid_grant' || (err as Error).message?.includes('invalid_grant');
}

export function createIntegrations({ db, cipher, states, google, log }: IntegrationsDeps) {
  const settingsOf = (row: Row) => IntegrationSettings.parse(row.settings ?? {});

  function present(row: Row): Integration {
    const settings = settingsOf(row);
    return {
      id: row.id,
      provider: row.provider as Provider,
      type: row.type as IntegrationType,
      connected: (row.accessTokenEnc !== null || row.refreshTokenEnc !== null) && !settings.error,
      contextualRules: row.contextualRulesEnc
        ? cipher.decrypt(row.contextualRulesEnc, rulesContext(row.userId))
        : null,
      settings,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
    };
  }

  function requireClient(): GoogleOAuthClient {
    const client = oauthClient(google);
    if (!client) throw unavailable(MESSAGES.notConfigured, 0);
    return client;
  }

  async function owned(userId: number, id: number): Promise<Row> {
    const [row] = await db
      .select()
      .from(integrations)
      .where(and(eq(integrations.id, id), eq(integrations.userId, userId)));
    if (!row) throw notFound('Integration not found');
    return row;
  }

  async function connectedOf(userId: number, type: IntegrationType): Promise<Row | undefined> {
    const [row] = await db
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.userId, userId),
          eq(integrations.provider, 'google'),
          eq(integrations.type, type),
        ),
      );
    return row && present(row).connected ? row : undefined;
  }

  async function markError(row: Row, message: string): Promise<void> {
    await db
      .update(integrations)
      .set({ settings: { ...row.settings, error: message } })
      .where(eq(integrations.id, row.id));
  }

  /**
   * The official client holding this account's tokens. It refreshes an expired access token by
   * itself; the new tokens are stored (encrypted) as they arrive.
   */
  function authorised(row: Row): GoogleOAuthClient {
    const client = requireClient();
    client.setCredentials({
      access_token: row.accessTokenEnc
        ? cipher.decrypt(row.accessTokenEnc, tokenContext(row.userId))
        : undefined,
      refresh_token: row.refreshTokenEnc
        ? cipher.decrypt(row.refreshTokenEnc, tokenContext(row.userId))
        : undefined,
      expiry_date: row.expiresAt?.getTime(),
    });
    client.on('tokens', (tokens) => {
      void db
        .update(integrations)
        .set({
          ...(tokens.access_token
            ? { accessTokenEnc: cipher.encrypt(tokens.access_token, tokenContext(row.userId)) }
            : {}),
          ...(tokens.refresh_token
            ? { refreshTokenEnc: cipher.encrypt(tokens.refresh_token, tokenContext(row.userId)) }
            : {}),
          ...(tokens.expiry_date ? { expiresAt: new Date(tokens.expiry_date) } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(integrations.id, row.id))
        .catch((err: unknown) =>
          log.warn({ err, integrationId: row.id }, 'could not store refreshed tokens'),
        );
    });
    return client;
  }

  /** Runs a call on the account; a lost grant is recorded (the connection-issue box) and said so. */
  async function onAccount<T>(row: Row, call: (client: GoogleOAuthClient) => Promise<T>): Promise<T> {
    try {
      return await call(authorised(row));
    } catch (err) {
      if (grantLost(err)) {
        await markError(row, MESSAGES.revoked);
        throw conflict(MESSAGES.revoked);
      }
      log.warn({ err, integrationId: row.id }, 'Google call failed');
      throw badGateway(MESSAGES.providerFailed);
    }
  }

  return {
    present,

    async list(userId: number, query: IntegrationListQuery): Promise<Integration[]> {
      const rows = await db
        .select()
        .from(integrations)
        .where(
          and(
            eq(integrations.userId, userId),
            query.provider ? eq(integrations.provider, query.provider) : undefined,
            query.type ? eq(integrations.type, query.type) : undefined,
          ),
        )
        .orderBy(integrations.id);
      return rows.map(present);
    },

    /** The consent address for `type`, carrying a fresh single-use state bound to the user. */
    async authUrl(
      userId: number,
      provider: Provider,
      type: IntegrationType,
      redirect: 'local' | 'server' = 'server',
    ): Promise<string> {
      if (!PROVIDER_TYPES[provider].includes(type))
        throw badRequest(`${provider} does not offer ${type} integrations`);
      if (provider !== 'google') throw unavailable(`${provider} is not available on this server yet`, 0);
      const client = requireClient();
      const redirectUri = redirect === 'local' ? `${google.appUrl}/direct-${provider}-callback` : undefined;
      const state = await states.issue({ userId, provider, type, redirectUri });
      return client.generateAuthUrl({
        ...(redirectUri ? { redirect_uri: redirectUri } : {}),
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: true,
        scope: scopesFor(type),
        state,
      });
    },

    /**
     * Completes a consent: the state must be valid, unused, unexpired, and the signed-in user's when
     * someone is signed in. Reconnecting updates the same row and clears a past error.
     */
    async complete(
      sessionUserId: number | null,
      code: string,
      state: string | undefined,
    ): Promise<Integration> {
      const claims = await states.consume(state);
      if (!claims || (sessionUserId !== null && claims.userId !== sessionUserId))
        throw badRequest(MESSAGES.invalidState);
      const client = requireClient();
      let tokens;
      try {
        ({ tokens } = await client.getToken({ code, redirect_uri: claims.redirectUri ?? undefined }));
      } catch (err) {
        log.warn({ err }, 'Google refused the authorization code');
        throw badGateway(MESSAGES.providerRefused);
      }
      const enc = (token: string | null | undefined) =>
        token ? cipher.encrypt(token, tokenContext(claims.userId)) : null;
      const values = {
        accessTokenEnc: enc(tokens.access_token),
        expiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
        scope: tokens.scope ?? null,
      };
      const [row] = await db
        .insert(integrations)
        .values({
          userId: claims.userId,
          provider: claims.provider,
          type: claims.type,
          ...values,
          refreshTokenEnc: enc(tokens.refresh_token),
        })
        .onConflictDoUpdate({
          target: [integrations.userId, integrations.provider, integrations.type],
          set: {
            ...values,
            // Google sends a refresh token only on some consents: keep the one stored otherwise.
            ...(tokens.refresh_token ? { refreshTokenEnc: enc(tokens.refresh_token) } : {}),
            settings: sql`${integrations.settings} - 'error'`,
            updatedAt: sql`now()`,
          },
        })
        .returning();
      return present(row!);
    },

    /** Disconnects: revokes the grant at Google when it can, then deletes the account and its cache. */
    async remove(userId: number, id: number): Promise<void> {
      const row = await owned(userId, id);
      const token = row.refreshTokenEnc ?? row.accessTokenEnc;
      const client = oauthClient(google);
      if (token && client) {
        await client
          .revokeToken(cipher.decrypt(token, tokenContext(userId)))
          .catch((err: unknown) =>
            log.warn({ err, integrationId: id }, 'token revocation failed; deleting anyway'),
          );
      }
      await db.delete(integrations).where(eq(integrations.id, id));
    },

    async updateSettings(userId: number, id: number, patch: SettingsPatchBody): Promise<Integration> {
      const row = await owned(userId, id);
      const [updated] = await db
        .update(integrations)
        .set({
          ...(patch.settings ? { settings: { ...row.settings, ...patch.settings } } : {}),
          ...(patch.contextualRules !== undefined
            ? {
                contextualRulesEnc: patch.contextualRules
                  ? cipher.encrypt(patch.contextualRules, rulesContext(userId))
                  : null,
              }
            : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(integrations.id, id))
        .returning();
      return present(updated!);
    },

    /** Sends through Gmail, or saves a Gmail draft. Nothing is ever sent but by this explicit call. */
    async sendEmail(userId: number, email: OutgoingEmailDraft, draft: boolean): Promise<SendAnswer> {
      const row = await connectedOf(userId, 'email');
      if (!row) throw conflict(MESSAGES.noEmail);
      const raw = await composeRaw(email);
      await onAccount(row, async (auth) => {
        const gmail = gmailOf(auth, google.GOOGLE_API_ROOT_URL);
        if (draft)
          await gmail.users.drafts.create({
            userId: 'me',
            requestBody: { message: { raw, threadId: email.threadId } },
          });
        else
          await gmail.users.messages.send({ userId: 'me', requestBody: { raw, threadId: email.threadId } });
      });
      return draft ? { success: true, message: 'Draft saved' } : { success: true, message: 'Email sent' };
    },

    /** Creates a real event, with the reminder as a popup override. */
    async createEvent(userId: number, event: CalendarEventDraft): Promise<CalendarEvent> {
      const row = await connectedOf(userId, 'calendar');
      if (!row) throw conflict(MESSAGES.noCalendar);
      const at = (m: { date: string; time: string }) => ({
        dateTime: `${m.date}T${m.time}:00`,
        timeZone: event.timeZone ?? 'UTC',
      });
      const created = await onAccount(row, (auth) =>
        calendarOf(auth, google.GOOGLE_API_ROOT_URL).events.insert({
          calendarId: 'primary',
          requestBody: {
            summary: event.title,
            description: event.description,
            location: event.location,
            start: at(event.start),
            end: at(event.end),
            reminders: event.reminder
              ? { useDefault: false, overrides: [{ method: 'popup', minutes: event.reminder }] }
              : { useDefault: false, overrides: [] },
          },
        }),
      );
      return {
        id: created.data.id ?? '',
        summary: created.data.summary ?? event.title,
        location: created.data.location ?? null,
        start: {
          dateTime: created.data.start?.dateTime ?? undefined,
          timeZone: created.data.start?.timeZone ?? undefined,
        },
        end: {
          dateTime: created.data.end?.dateTime ?? undefined,
          timeZone: created.data.end?.timeZone ?? undefined,
        },
        htmlLink: created.data.htmlLink ?? undefined,
      };
    },
  };
}
export type Integrations = ReturnType<typeof createIntegrations>;
