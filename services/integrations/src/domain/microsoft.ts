/**
 * Microsoft 365 and Outlook.com: the consent and tokens of Microsoft's identity platform, and
 * Microsoft Graph through its official client.
 *
 * The consent and the tokens are OAuth 2.0's authorization-code and refresh-token grants, posted as
 * the platform documents them. MSAL (`@azure/msal-node`) is not used: it refuses an authority that is
 * not https (the local stand-in of the tests) and keeps refresh tokens in its own cache, where Haven
 * keeps each account's tokens encrypted in its row.
 */
import {
  Client,
  HTTPMessageHandler,
  RedirectHandler,
  RetryHandler,
  RetryHandlerOptions,
  type Context,
  type Middleware,
} from '@microsoft/microsoft-graph-client';
import type { IntegrationType } from '@haven/contracts/integrations';
import type { Config } from '@haven/kit/config';

/** Who the account is (`User.Read`, `email`), and a refresh token (`offline_access`). */
const ACCOUNT_SCOPES = ['offline_access', 'openid', 'email', 'User.Read'];

/**
 * What Haven asks for, by card: mail is read and written (drafts) and sent; the calendar is read
 * and written (events, answers to invitations). Nothing of the other.
 */
export function microsoftScopes(type: IntegrationType): string[] {
  return [
    ...ACCOUNT_SCOPES,
    ...(type === 'calendar' ? ['Calendars.ReadWrite'] : ['Mail.ReadWrite', 'Mail.Send']),
  ];
}

export type MicrosoftSettings = Pick<
  Config,
  'MICROSOFT_CLIENT_ID' | 'MICROSOFT_CLIENT_SECRET' | 'MICROSOFT_AUTH_URL' | 'MICROSOFT_GRAPH_URL'
> & { appUrl: string };

/** The token endpoint's answer (both grants). */
export interface MicrosoftTokens {
  accessToken: string;
  /** Microsoft sends a new one with each refresh; the one before keeps working until it expires. */
  refreshToken: string | null;
  expiresAt: Date;
  scope: string | null;
}

/**
 * The token endpoint refused: `oauthError` is OAuth's code (`invalid_grant` when the grant is gone).
 * Not `error`: the Graph client would read an error with that field as a Graph answer's body.
 */
export class MicrosoftTokenError extends Error {
  override name = 'MicrosoftTokenError';
  constructor(
    readonly status: number,
    readonly oauthError: string,
    description: string,
  ) {
    super(`Microsoft token endpoint: ${oauthError}: ${description.split('\r\n')[0]}`);
  }
}

const endpoint = (settings: MicrosoftSettings, name: 'authorize' | 'token') =>
  `${settings.MICROSOFT_AUTH_URL.replace(/\/+$/, '')}/${name}`;

/** The consent page's address for this state. */
export function microsoftConsentUrl(
  settings: MicrosoftSettings,
  type: IntegrationType,
  state: string,
  redirectUri: string,
): string {
  const url = new URL(endpoint(settings, 'authorize'));
  url.searchParams.set('client_id', settings.MICROSOFT_CLIENT_ID!);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_mode', 'query');
  url.searchParams.set('scope', microsoftScopes(type).join(' '));
  url.searchParams.set('state', state);
  // The account picker, so a person with two accounts chooses which to connect.
  url.searchParams.set('prompt', 'select_account');
  return url.href;
}

/** Posts a grant to the token endpoint (a code or a refresh token) for a card's scopes, and reads the tokens. */
export async function microsoftToken(
  settings: MicrosoftSettings,
  type: IntegrationType,
  grant: { code: string; redirectUri: string } | { refreshToken: string },
): Promise<MicrosoftTokens> {
  const form = new URLSearchParams({
    client_id: settings.MICROSOFT_CLIENT_ID!,
    client_secret: settings.MICROSOFT_CLIENT_SECRET!,
    scope: microsoftScopes(type).join(' '),
    ...('code' in grant
      ? { grant_type: 'authorization_code', code: grant.code, redirect_uri: grant.redirectUri }
      : { grant_type: 'refresh_token', refresh_token: grant.refreshToken }),
  });
  const answer = await fetch(endpoint(settings, 'token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form,
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
  if (!answer.ok || typeof body.access_token !== 'string')
    throw new MicrosoftTokenError(
      answer.status,
      typeof body.error === 'string' ? body.error : 'invalid_response',
      typeof body.error_description === 'string' ? body.error_description : `HTTP ${answer.status}`,
    );
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresAt: new Date(Date.now() + Number(body.expires_in ?? 3600) * 1000),
    // Graph's scopes by their short names, however the answer spells them.
    scope: typeof body.scope === 'string' ? body.scope.replaceAll('https://graph.microsoft.com/', '') : null,
  };
}

/** Up to this Retry-After, a call waits and tries again by itself; longer, it fails (and the sync backs off). */
const MAX_INLINE_RETRY_SECONDS = 10;

/**
 * Signs every request with the account's token. The client's own AuthenticationHandler signs only
 * https addresses on hosts it knows, which leaves out the local stand-in of the tests; this client
 * calls nothing but Graph, so every request is Graph's.
 */
class BearerHandler implements Middleware {
  private next?: Middleware;
  constructor(private readonly token: () => Promise<string>) {}
  async execute(context: Context): Promise<void> {
    const options = (context.options ??= {});
    options.headers = {
      ...(options.headers as Record<string, string>),
      Authorization: `Bearer ${await this.token()}`,
    };
    await this.next!.execute(context);
  }
  setNext(next: Middleware): void {
    this.next = next;
  }
}

/**
 * A Graph client on the configured service root, its token from `token` (asked before each call). It
 * honours Retry-After on 429 and 503 (twice at most, for short waits only: a longer one fails the
 * call, and the sync waits by its own schedule; a person is answered at once).
 */
export function graphClient(settings: Pick<Config, 'MICROSOFT_GRAPH_URL'>, token: () => Promise<string>) {
  const root = new URL(settings.MICROSOFT_GRAPH_URL.replace(/\/+$/, ''));
  const version = root.pathname.split('/').filter(Boolean).at(-1) ?? 'v1.0';
  const baseUrl = new URL(root.pathname.replace(/[^/]+$/, ''), root).href.replace(/\/$/, '');
  const retry = new RetryHandler(
    new RetryHandlerOptions(1, 2, (_delay, _attempt, _request, _options, response) => {
      const after = Number((response as Response | undefined)?.headers.get('retry-after') ?? 0);
      return !Number.isFinite(after) || after <= MAX_INLINE_RETRY_SECONDS;
    }),
  );
  const bearer = new BearerHandler(token);
  const redirect = new RedirectHandler();
  bearer.setNext(retry);
  retry.setNext(redirect);
  redirect.setNext(new HTTPMessageHandler());
  return Client.initWithMiddleware({ middleware: bearer, baseUrl, defaultVersion: version });
}

/**
 * A next or delta link Graph answered, as a path the client puts on its service root: the client
 * reads only https addresses whole, and the link's root is the configured one anyway.
 */
export const graphLink = (link: string) => link.replace(/^https?:\/\/[^/]+\/[^/?]+(?=\/)/, '');

export type GraphClient = ReturnType<typeof graphClient>;

/** Whether an error is Graph's saying the item is not there. */
export const graphNotFound = (err: unknown) => (err as { statusCode?: number }).statusCode === 404;

export const MICROSOFT_MESSAGES = {
  revoked: 'Microsoft no longer accepts this connection. Please reconnect.',
  missingScope:
    'Microsoft did not give Haven the access this needs (a permission was left out). Please reconnect and allow it.',
  providerFailed: 'Microsoft did not complete the request. Please try again.',
} as const;

/**
 * What a Microsoft error says about the connection itself, as the message the user reads; null when
 * it is about this one call: the grant is gone when the token endpoint answers `invalid_grant`
 * (consent withdrawn, password changed, expired) or Graph still answers 401 to a fresh token; a 403
 * `ErrorAccessDenied` means a permission was left out at consent.
 */
export function microsoftGrantProblem(err: unknown): string | null {
  const tokenError = tokenErrorOf(err);
  if (tokenError)
    return tokenError === 'invalid_grant' || tokenError === 'interaction_required'
      ? MICROSOFT_MESSAGES.revoked
      : null;
  const { statusCode, code } = err as { statusCode?: number; code?: string | null };
  if (statusCode === 401) return MICROSOFT_MESSAGES.revoked;
  if (statusCode === 403 && (code === 'ErrorAccessDenied' || code === 'Authorization_RequestDenied'))
    return MICROSOFT_MESSAGES.missingScope;
  return null;
}

/**
 * The token endpoint's OAuth error code, when that is what failed: thrown as it is, or as the Graph
 * client wraps an error of its middleware (a GraphError whose code is the error's name and whose
 * body is its text).
 */
function tokenErrorOf(err: unknown): string | null {
  if (err instanceof MicrosoftTokenError) return err.oauthError;
  const { code, body } = err as { code?: unknown; body?: unknown };
  if (code !== 'MicrosoftTokenError' || typeof body !== 'string') return null;
  return /Microsoft token endpoint: ([a-z_]+):/.exec(body)?.[1] ?? null;
}
