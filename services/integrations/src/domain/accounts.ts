import {
  isOAuthProvider,
  IntegrationSettings,
  type Integration,
  type IntegrationType,
  type Provider,
} from '@haven/contracts/integrations';
import type { FieldCipher } from '@haven/kit/crypto';
import {
  AppError,
  badGateway,
  notConnected,
  notFound,
  reconnectRequired,
  unavailable,
} from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import type { Db } from '@haven/kit/db';
import {
  findIntegration,
  findIntegrationOfUser,
  findOwnedIntegration,
  listIntegrationsOfUser,
  markIntegrationError,
  setAccountAddress,
  setTokens,
  type IntegrationRow,
} from '../db/integrations.repository';
import { oauthClient, type GoogleOAuthClient, type GoogleSettings } from './google';
import {
  MICROSOFT_MESSAGES,
  microsoftGrantProblem,
  microsoftToken,
  type MicrosoftSettings,
} from './microsoft';
import { tokenContext, rulesContext, accountContext } from './contexts';
import { serverProblem } from './mail/server-problem';
export { tokenContext, rulesContext, accountContext };

export type Row = IntegrationRow;

export const MESSAGES = {
  invalidState: 'Invalid state parameter',
  notConfigured: 'Google is not configured on this server',
  providerRefused: 'Failed to complete the integration',
  noEmail:
    'No email account is connected. Connect your mail (Google, Microsoft or another) on the Integrations page first.',
  noCalendar:
    'No calendar is connected. Connect your calendar (Google, Microsoft or another) on the Integrations page first.',
  revoked: 'Google no longer accepts this connection. Please reconnect.',
  missingScope:
    'Google did not give Haven the access this needs (a permission was left out). Please reconnect and allow it.',
  needsAttention: 'Your Google connection needs attention. Please reconnect it on the Integrations page.',
  providerFailed: 'Google did not complete the request. Please try again.',
  serverFailed: 'The server did not complete the request. Please try again.',
  emailNotFound: 'Email not found',
  eventNotFound: 'Event not found',
} as const;

/**
 * What a Google error says about the connection itself, as the message the user reads; null when
 * it is about this one call. The grant is gone when the token endpoint answers `invalid_grant`
 * (revoked, expired, never valid) or an API answers 401 (`invalid_token`: the access token was
 * revoked with the grant, and the client does not refresh a token it believes unexpired). A 403
 * for insufficient scopes means the user left a permission out at consent. Rate limits (403
 * `rateLimitExceeded`) are not about the connection.
 */
export function grantProblem(err: unknown): string | null {
  const { response, message, status, code } = err as {
    response?: { status?: number; data?: unknown };
    message?: string;
    status?: number;
    code?: unknown;
  };
  const data = response?.data as { error?: unknown } | undefined;
  const httpStatus = response?.status ?? status ?? (typeof code === 'number' ? code : undefined);
  if (
    data?.error === 'invalid_grant' ||
    data?.error === 'invalid_token' ||
    message?.includes('invalid_grant')
  )
    return MESSAGES.revoked;
  // The token endpoint's own errors (invalid_client: this server's configuration) are not the user's.
  if (typeof data?.error === 'string') return null;
  if (httpStatus === 401) return MESSAGES.revoked;
  if (
    httpStatus === 403 &&
    /insufficientPermissions|ACCESS_TOKEN_SCOPE_INSUFFICIENT|insufficient authentication scopes/i.test(
      `${message ?? ''} ${JSON.stringify(data ?? '')}`,
    )
  )
    return MESSAGES.missingScope;
  return null;
}

export interface AccountsDeps {
  db: Db;
  cipher: FieldCipher;
  google: GoogleSettings;
  microsoft: MicrosoftSettings;
  log: Logger;
}

/** A Microsoft access token this close to expiring is refreshed before a call. */
const MICROSOFT_REFRESH_AHEAD_MS = 5 * 60_000;

/**
 * The accounts' tokens: the Google client holding an account's, a Microsoft account's access token
 * when asked for, and refreshed ones stored again (encrypted).
 */
function createTokenKeeper({ db, cipher, google, microsoft, log }: AccountsDeps) {
  function requireClient(): GoogleOAuthClient {
    const client = oauthClient(google);
    if (!client) throw unavailable(MESSAGES.notConfigured, 0);
    return client;
  }

  /** Stores tokens the client refreshed, encrypted. */
  async function storeTokens(
    row: Row,
    tokens: { access_token?: string | null; refresh_token?: string | null; expiry_date?: number | null },
  ): Promise<void> {
    await setTokens(db, row.id, {
      ...(tokens.access_token
        ? { accessTokenEnc: cipher.encrypt(tokens.access_token, tokenContext(row.userId)) }
        : {}),
      ...(tokens.refresh_token
        ? { refreshTokenEnc: cipher.encrypt(tokens.refresh_token, tokenContext(row.userId)) }
        : {}),
      ...(tokens.expiry_date ? { expiresAt: new Date(tokens.expiry_date) } : {}),
    });
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
      storeTokens(row, tokens).catch((err: unknown) =>
        log.warn({ err, integrationId: row.id }, 'could not store refreshed tokens'),
      );
    });
    return client;
  }

  /**
   * A Microsoft account's access token, asked for before each Graph call: the stored one while it
   * holds, else a fresh one from the refresh token (both stored again, encrypted; Microsoft sends a
   * new refresh token with each refresh).
   */
  function microsoftAccess(row: Row): () => Promise<string> {
    if (!microsoft.MICROSOFT_CLIENT_ID || !microsoft.MICROSOFT_CLIENT_SECRET)
      throw unavailable('Microsoft is not configured on this server', 0);
    const decrypt = (value: string | null) =>
      value ? cipher.decrypt(value, tokenContext(row.userId)) : null;
    let current = { token: decrypt(row.accessTokenEnc), expiresAt: row.expiresAt?.getTime() ?? 0 };
    let refreshToken = decrypt(row.refreshTokenEnc);
    let refreshing: Promise<string> | null = null;
    async function refresh(): Promise<string> {
      if (!refreshToken) throw new Error('Microsoft: no refresh token is stored for this account');
      const tokens = await microsoftToken(microsoft, row.type as IntegrationType, { refreshToken });
      current = { token: tokens.accessToken, expiresAt: tokens.expiresAt.getTime() };
      refreshToken = tokens.refreshToken ?? refreshToken;
      await storeTokens(row, {
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken,
        expiry_date: tokens.expiresAt.getTime(),
      });
      return tokens.accessToken;
    }
    return async () => {
      if (current.token && current.expiresAt - Date.now() > MICROSOFT_REFRESH_AHEAD_MS) return current.token;
      // Calls made together share one refresh.
      refreshing ??= refresh().finally(() => (refreshing = null));
      return refreshing;
    };
  }

  return { requireClient, storeTokens, authorised, microsoftAccess };
}

/**
 * The stored accounts: presenting them, finding the user's, and calling Google as one of them with
 * the official client (tokens decrypted only for the call, refreshed ones stored again encrypted).
 */
export function createAccounts({ db, cipher, google, microsoft, log }: AccountsDeps) {
  const settingsOf = (row: Row) => IntegrationSettings.parse(row.settings ?? {});
  const isConnected = (row: Row) =>
    (row.accessTokenEnc !== null || row.refreshTokenEnc !== null) && !settingsOf(row).error;

  function present(row: Row): Integration {
    return {
      id: row.id,
      provider: row.provider as Provider,
      type: row.type as IntegrationType,
      connected: isConnected(row),
      contextualRules: row.contextualRulesEnc
        ? cipher.decrypt(row.contextualRulesEnc, rulesContext(row.userId))
        : null,
      settings: settingsOf(row),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      // Google separates scopes with spaces, Slack with commas.
      scopes: row.scope?.split(/[\s,]+/).filter(Boolean) ?? [],
    };
  }

  const { requireClient, storeTokens, authorised, microsoftAccess } = createTokenKeeper({
    db,
    cipher,
    google,
    microsoft,
    log,
  });

  async function markError(row: Row, message: string): Promise<void> {
    await markIntegrationError(db, row.id, message);
  }

  /**
   * The user's account of `type`, whatever its state: of `provider` when given, else of any provider
   * (mail and calendar: Google's, or a mail server's), a connected one first, then the newest.
   */
  async function accountOf(userId: number, type: IntegrationType, provider?: Provider) {
    if (provider) return findIntegrationOfUser(db, userId, provider, type);
    const rows = await listIntegrationsOfUser(db, userId, { type });
    const newestFirst = (a: Row, b: Row) => b.updatedAt.getTime() - a.updatedAt.getTime();
    return [...rows.filter(isConnected).sort(newestFirst), ...rows.sort(newestFirst)][0];
  }

  /** What an error says about the account's connection itself, by its provider; null when about this call. */
  const connectionProblem = (row: Row, err: unknown) =>
    row.provider === 'microsoft'
      ? microsoftGrantProblem(err)
      : isOAuthProvider(row.provider)
        ? grantProblem(err)
        : serverProblem(err);

  /** What the user reads when the provider failed one call (not the connection). */
  const callFailed = (row: Row) =>
    row.provider === 'microsoft'
      ? MICROSOFT_MESSAGES.providerFailed
      : isOAuthProvider(row.provider)
        ? MESSAGES.providerFailed
        : MESSAGES.serverFailed;

  return {
    settingsOf,
    accountOf,
    isConnected,
    present,
    requireClient,
    authorised,
    microsoftAccess,
    storeTokens,
    markError,

    byId: (id: number): Promise<Row | undefined> => findIntegration(db, id),

    /** Every account of the user, whatever its provider, type or state. */
    all: (userId: number): Promise<Row[]> => listIntegrationsOfUser(db, userId),

    /** Stores the account's own address (encrypted): mail or messages from it are the user's own. */
    async storeAddress(row: Row, address: string): Promise<void> {
      await setAccountAddress(db, row.id, cipher.encrypt(address, accountContext(row.userId)));
    },

    /** The user's integration `id`; another user's is not found. */
    async owned(userId: number, id: number): Promise<Row> {
      const row = await findOwnedIntegration(db, userId, id);
      if (!row) throw notFound('Integration not found');
      return row;
    },

    connectionProblem,

    /** The user's account of `type` (and `provider` when given) while it is connected (tokens, no issue). */
    async connectedOf(userId: number, type: IntegrationType, provider?: Provider): Promise<Row | undefined> {
      const row = await accountOf(userId, type, provider);
      return row && isConnected(row) ? row : undefined;
    },

    /**
     * The user's connected account of `type` for an action, or the 409 saying why there is none:
     * `not_connected` when never connected, `reconnect_required` when it is there but in error.
     */
    async usable(userId: number, type: IntegrationType): Promise<Row> {
      const row = await accountOf(userId, type);
      if (row && isConnected(row)) return row;
      if (row && (row.accessTokenEnc !== null || row.refreshTokenEnc !== null))
        throw reconnectRequired(settingsOf(row).error ?? MESSAGES.needsAttention);
      throw notConnected(type === 'email' ? MESSAGES.noEmail : MESSAGES.noCalendar);
    },

    /**
     * Runs a call on the account (its source made by `call`); a lost grant or a refused password is
     * recorded (the connection-issue box) and said so.
     */
    async onAccount<T>(row: Row, call: () => Promise<T>): Promise<T> {
      try {
        return await call();
      } catch (err) {
        if (err instanceof AppError) throw err;
        const problem = connectionProblem(row, err);
        if (problem) {
          await markError(row, problem);
          throw reconnectRequired(problem);
        }
        log.warn({ err, integrationId: row.id, provider: row.provider }, 'provider call failed');
        throw badGateway(callFailed(row));
      }
    },
  };
}
export type Accounts = ReturnType<typeof createAccounts>;
