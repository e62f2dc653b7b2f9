import { Client as NotionClient } from '@notionhq/client';
import { WebClient } from '@slack/web-api';
import type { IntegrationType, OAuthProvider as OAuthProviderName } from '@haven/contracts/integrations';
import type { Config } from '@haven/kit/config';
import { oauthClient, scopesFor, type GoogleSettings } from './google';
import { microsoftConsentUrl, microsoftToken, type MicrosoftSettings } from './microsoft';

/** What a consent gives: the tokens to store (encrypted) and who the account is. */
export interface Grant {
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
  /** The account's own id or address, when the exchange says it. */
  account: string | null;
}

/** One provider's OAuth: its consent page, code exchange and revocation, through its official client. */
export interface OAuthProvider {
  /** The server has this provider's client id and secret. */
  configured: boolean;
  consentUrl(type: IntegrationType, state: string, redirectUri?: string): string;
  exchange(code: string, redirectUri: string | undefined, type: IntegrationType): Promise<Grant>;
  /** Revokes the grant at the provider (best effort: the caller deletes it anyway). */
  revoke(token: string): Promise<void>;
}

/**
 * Slack user scopes: read what mentions the user (search), their direct messages and who people
 * are. Nothing that posts.
 */
/**
 * The user scopes Slack sync needs: mentions (search), who wrote (users), direct messages (im), and
 * the replies in the channels a mention was in: public (channels:history) and private
 * (groups:history) ones.
 */
export const SLACK_USER_SCOPES = [
  'search:read',
  'im:history',
  'im:read',
  'users:read',
  'channels:history',
  'groups:history',
];

export type ProviderSettings = GoogleSettings &
  MicrosoftSettings &
  Pick<
    Config,
    | 'SLACK_CLIENT_ID'
    | 'SLACK_CLIENT_SECRET'
    | 'SLACK_AUTH_URL'
    | 'SLACK_API_URL'
    | 'NOTION_CLIENT_ID'
    | 'NOTION_CLIENT_SECRET'
    | 'NOTION_AUTH_URL'
    | 'NOTION_API_URL'
  >;

/** Where each provider sends the browser back: the gateway's public callback route. */
export const serverCallback = (appUrl: string, provider: OAuthProviderName) =>
  `${appUrl}/api/auth/${provider}/callback`;

/** A Slack Web API client on the configured base (rate limits answered to us, not retried inside). */
export const slackClient = (settings: Pick<Config, 'SLACK_API_URL'>, token?: string) =>
  new WebClient(token, {
    slackApiUrl: settings.SLACK_API_URL,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: 15_000,
  });

/** A Notion client on the configured base (rate limits answered to us, not retried inside). */
export const notionClient = (settings: Pick<Config, 'NOTION_API_URL'>, auth?: string) =>
  new NotionClient({ auth, baseUrl: settings.NOTION_API_URL, retry: false, timeoutMs: 15_000 });

export function createProviders(settings: ProviderSettings): Record<OAuthProviderName, OAuthProvider> {
  const google: OAuthProvider = {
    configured: Boolean(settings.GOOGLE_CLIENT_ID && settings.GOOGLE_CLIENT_SECRET),
    consentUrl(type, state, redirectUri) {
      return oauthClient(settings)!.generateAuthUrl({
        ...(redirectUri ? { redirect_uri: redirectUri } : {}),
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: true,
        scope: scopesFor(type),
        state,
      });
    },
    async exchange(code, redirectUri) {
      const { tokens } = await oauthClient(settings)!.getToken({ code, redirect_uri: redirectUri });
      return {
        accessToken: tokens.access_token ?? null,
        refreshToken: tokens.refresh_token ?? null,
        expiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
        scope: tokens.scope ?? null,
        account: null,
      };
    },
    async revoke(token) {
      await oauthClient(settings)?.revokeToken(token);
    },
  };

  const microsoft: OAuthProvider = {
    configured: Boolean(settings.MICROSOFT_CLIENT_ID && settings.MICROSOFT_CLIENT_SECRET),
    consentUrl: (type, state, redirectUri) =>
      microsoftConsentUrl(settings, type, state, redirectUri ?? serverCallback(settings.appUrl, 'microsoft')),
    async exchange(code, redirectUri, type) {
      const tokens = await microsoftToken(settings, type, {
        code,
        redirectUri: redirectUri ?? serverCallback(settings.appUrl, 'microsoft'),
      });
      return {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
        scope: tokens.scope,
        // Who the account is comes with the first sync (Graph's /me).
        account: null,
      };
    },
    // Microsoft has no endpoint that revokes one app's refresh token: the row (and the token) is
    // deleted, and the person removes Haven at myaccount.microsoft.com › Apps to withdraw consent.
    async revoke() {},
  };

  const slack: OAuthProvider = {
    configured: Boolean(settings.SLACK_CLIENT_ID && settings.SLACK_CLIENT_SECRET),
    consentUrl(_type, state, redirectUri) {
      const url = new URL(settings.SLACK_AUTH_URL);
      url.searchParams.set('client_id', settings.SLACK_CLIENT_ID!);
      url.searchParams.set('user_scope', SLACK_USER_SCOPES.join(','));
      url.searchParams.set('redirect_uri', redirectUri ?? serverCallback(settings.appUrl, 'slack'));
      url.searchParams.set('state', state);
      return url.href;
    },
    async exchange(code, redirectUri) {
      const answer = await slackClient(settings).oauth.v2.access({
        client_id: settings.SLACK_CLIENT_ID!,
        client_secret: settings.SLACK_CLIENT_SECRET!,
        code,
        redirect_uri: redirectUri ?? serverCallback(settings.appUrl, 'slack'),
      });
      const user = answer.authed_user;
      return {
        accessToken: user?.access_token ?? null,
        refreshToken: user?.refresh_token ?? null,
        expiresAt: user?.expires_in ? new Date(Date.now() + user.expires_in * 1000) : null,
        scope: user?.scope ?? null,
        account: user?.id ?? null,
      };
    },
    async revoke(token) {
      await slackClient(settings, token).auth.revoke();
    },
  };

  const notionCredentials = () => ({
    client_id: settings.NOTION_CLIENT_ID!,
    client_secret: settings.NOTION_CLIENT_SECRET!,
  });
  const notion: OAuthProvider = {
    configured: Boolean(settings.NOTION_CLIENT_ID && settings.NOTION_CLIENT_SECRET),
    consentUrl(_type, state, redirectUri) {
      const url = new URL(settings.NOTION_AUTH_URL);
      url.searchParams.set('client_id', settings.NOTION_CLIENT_ID!);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('owner', 'user');
      url.searchParams.set('redirect_uri', redirectUri ?? serverCallback(settings.appUrl, 'notion'));
      url.searchParams.set('state', state);
      return url.href;
    },
    async exchange(code, redirectUri) {
      // The client sends the client id and secret as HTTP Basic auth, as Notion requires.
      const answer = await notionClient(settings).oauth.token({
        ...notionCredentials(),
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri ?? serverCallback(settings.appUrl, 'notion'),
      });
      return {
        accessToken: answer.access_token,
        refreshToken: answer.refresh_token ?? null,
        expiresAt: null,
        scope: null,
        account: answer.bot_id,
      };
    },
    async revoke(token) {
      await notionClient(settings).oauth.revoke({ ...notionCredentials(), token });
    },
  };

  return { google, microsoft, slack, notion };
}
export type Providers = ReturnType<typeof createProviders>;
