import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in for Google's OAuth, Gmail and Calendar endpoints, reached by the product only
 * through GOOGLE_AUTH_URL, GOOGLE_TOKEN_URL and GOOGLE_API_ROOT_URL. It consents at once, issues
 * tokens that expire, refreshes and revokes them, and records what the product sent.
 */

interface Grant {
  refreshToken: string;
  scope: string;
  revoked: boolean;
}

export async function startGoogleDouble(options: { accessTokenSeconds?: number } = {}) {
  const codes = new Map<string, Grant>();
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, { grant: Grant; expiresAt: number }>();
  const state = {
    accessTokenSeconds: options.accessTokenSeconds ?? 3600,
    tokenRequests: [] as Array<Record<string, string>>,
    revoked: [] as string[],
    sent: [] as Array<{ raw: string; threadId?: string }>,
    drafts: [] as Array<{ raw: string; threadId?: string }>,
    events: [] as Array<Record<string, unknown>>,
    /** The consent redirects back with `error=access_denied` instead of a code. */
    deny: false,
  };

  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const newToken = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;
  const issueAccess = (grant: Grant) => {
    const token = newToken('ya29');
    accessTokens.set(token, { grant, expiresAt: Date.now() + state.accessTokenSeconds * 1000 });
    return token;
  };
  /** The grant behind a live bearer token, or null (then the API answers 401). */
  const bearer = (req: IncomingMessage) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const entry = token ? accessTokens.get(token) : undefined;
    if (!entry || entry.grant.revoked || entry.expiresAt < Date.now()) return null;
    return entry.grant;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const body = await read(req);
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const redirect = new URL(url.searchParams.get('redirect_uri')!);
      if (state.deny) redirect.searchParams.set('error', 'access_denied');
      else {
        const code = newToken('code');
        codes.set(code, {
          refreshToken: newToken('1//refresh'),
          scope: url.searchParams.get('scope') ?? '',
          revoked: false,
        });
        redirect.searchParams.set('code', code);
      }
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: redirect.href });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = Object.fromEntries(new URLSearchParams(body));
      state.tokenRequests.push(form);
      if (form.grant_type === 'authorization_code') {
        const grant = codes.get(form.code ?? '');
        if (!grant) return json(res, 400, { error: 'invalid_grant', error_description: 'Bad code' });
        codes.delete(form.code!); // a code works once
        grants.set(grant.refreshToken, grant);
        return json(res, 200, {
          access_token: issueAccess(grant),
          refresh_token: grant.refreshToken,
          expires_in: state.accessTokenSeconds,
          scope: grant.scope,
          token_type: 'Bearer',
        });
      }
      if (form.grant_type === 'refresh_token') {
        const grant = grants.get(form.refresh_token ?? '');
        if (!grant || grant.revoked)
          return json(res, 400, {
            error: 'invalid_grant',
            error_description: 'Token has been expired or revoked.',
          });
        return json(res, 200, {
          access_token: issueAccess(grant),
          expires_in: state.accessTokenSeconds,
          scope: grant.scope,
          token_type: 'Bearer',
        });
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    if (req.method === 'POST' && url.pathname === '/revoke') {
      const token = new URLSearchParams(body).get('token') ?? url.searchParams.get('token') ?? '';
      state.revoked.push(token);
      const grant = grants.get(token) ?? accessTokens.get(token)?.grant;
      if (grant) grant.revoked = true;
      return json(res, grant ? 200 : 400, grant ? {} : { error: 'invalid_token' });
    }

    const grant = bearer(req);
    if (!grant) return json(res, 401, { error: { code: 401, message: 'Invalid Credentials' } });
    if (req.method === 'POST' && url.pathname === '/gmail/v1/users/me/messages/send') {
      const message = JSON.parse(body) as { raw: string; threadId?: string };
      state.sent.push(message);
      return json(res, 200, { id: newToken('msg'), threadId: message.threadId ?? newToken('thread') });
    }
    if (req.method === 'POST' && url.pathname === '/gmail/v1/users/me/drafts') {
      const draft = JSON.parse(body) as { message: { raw: string; threadId?: string } };
      state.drafts.push(draft.message);
      return json(res, 200, { id: newToken('draft'), message: { id: newToken('msg') } });
    }
    if (req.method === 'POST' && url.pathname === '/calendar/v3/calendars/primary/events') {
      const event = JSON.parse(body) as Record<string, unknown>;
      const stored = { ...event, id: newToken('evt'), htmlLink: 'https://calendar.example/event' };
      state.events.push(stored);
      // Google answers times with their offset (this double: UTC's).
      const withOffset = (t: unknown) => {
        const time = t as { dateTime?: string; timeZone?: string };
        return {
          ...time,
          dateTime:
            time.dateTime && !/(Z|[+-]\d\d:\d\d)$/.test(time.dateTime) ? `${time.dateTime}Z` : time.dateTime,
        };
      };
      return json(res, 200, { ...stored, start: withOffset(event.start), end: withOffset(event.end) });
    }
    json(res, 404, { error: { code: 404, message: `no route ${req.method} ${url.pathname}` } });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    state,
    /** The three settings that point the product here. */
    env: {
      GOOGLE_CLIENT_ID: 'haven-test-client',
      GOOGLE_CLIENT_SECRET: 'haven-test-secret',
      GOOGLE_AUTH_URL: `${base}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${base}/token`,
      GOOGLE_API_ROOT_URL: `${base}/`,
    },
    /** Revokes a grant as the user would from their Google account page. */
    revokeAll() {
      for (const grant of grants.values()) grant.revoked = true;
    },
    /** Expires every access token now, so the next call must refresh. */
    expireAccessTokens() {
      for (const entry of accessTokens.values()) entry.expiresAt = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
