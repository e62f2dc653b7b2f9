import { bearerOf, listen, newToken, readBody, sendJson } from './http';

/*
 * A local stand-in for Slack's OAuth v2 consent and Web API, reached by the product only through
 * SLACK_AUTH_URL and SLACK_API_URL. One workspace: people, channels, direct messages and posts the
 * test writes; user tokens that can be revoked; and rate limits on demand.
 */

interface Message {
  ts: string;
  user: string;
  text: string;
  thread_ts?: string;
}

export async function startSlackDouble() {
  const users = new Map<string, { id: string; name: string }>();
  const channels = new Map<
    string,
    { id: string; name?: string; im?: string; private?: boolean; messages: Message[] }
  >();
  const tokens = new Map<string, { user: string; revoked: boolean; scopes: string[] }>();
  const codes = new Map<string, { user: string; scopes: string[] }>();
  let clock = Math.floor(Date.now() / 1000) - 3600;
  const state = {
    /** Who the next consent signs in as. */
    consentAs: 'U0ME',
    deny: false,
    exchanges: [] as Array<Record<string, string>>,
    revoked: [] as string[],
    /** Web API methods called, with the token's user. */
    calls: [] as Array<{ method: string; user?: string }>,
    /** Grants only these user scopes on the next consents (a token from an older consent). */
    grantOnly: null as string[] | null,
    rateLimitNext: 0,
    retryAfterSeconds: 30,
  };

  const person = (id: string, name: string) => users.set(id, { id, name });
  person('U0ME', 'me');

  /** The user scope a Web API method needs, as Slack's method reference lists it. */
  const scopeFor = (method: string, args: Record<string, string>): string | null => {
    const channel = channels.get(args.channel ?? '');
    const history = channel?.im ? 'im:history' : channel?.private ? 'groups:history' : 'channels:history';
    return (
      {
        'search.messages': 'search:read',
        'users.info': 'users:read',
        'conversations.list': 'im:read',
        'conversations.history': history,
        'conversations.replies': history,
      }[method] ?? null
    );
  };

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const raw = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/oauth/v2/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      if (state.deny) back.searchParams.set('error', 'access_denied');
      else {
        const code = newToken('slack-code');
        // The user token gets the user scopes the app asked for (Slack grants them all or none).
        codes.set(code, {
          user: state.consentAs,
          scopes: state.grantOnly ?? (url.searchParams.get('user_scope') ?? '').split(','),
        });
        back.searchParams.set('code', code);
      }
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    const method = url.pathname.replace(/^\/api\//, '');
    const args: Record<string, string> = raw.startsWith('{')
      ? (JSON.parse(raw) as Record<string, string>)
      : Object.fromEntries(new URLSearchParams(raw));
    for (const [k, v] of url.searchParams) args[k] ??= v;
    if (method === 'oauth.v2.access') {
      state.exchanges.push(args);
      const granted = codes.get(args.code ?? '');
      if (!granted || args.client_secret !== 'slack-test-secret')
        return sendJson(res, 200, { ok: false, error: 'invalid_code' });
      codes.delete(args.code!);
      const { user, scopes } = granted;
      const token = newToken('xoxp');
      tokens.set(token, { user, revoked: false, scopes });
      return sendJson(res, 200, {
        ok: true,
        app_id: 'A0HAVEN',
        authed_user: {
          id: user,
          scope: scopes.join(','),
          access_token: token,
          token_type: 'user',
        },
        team: { id: 'T0TEAM', name: 'Team' },
      });
    }
    const token = bearerOf(req) ?? args.token;
    const grant = token ? tokens.get(token) : undefined;
    state.calls.push({ method, user: grant?.user });
    if (!grant) return sendJson(res, 200, { ok: false, error: 'not_authed' });
    if (grant.revoked) return sendJson(res, 200, { ok: false, error: 'token_revoked' });
    if (state.rateLimitNext > 0) {
      state.rateLimitNext--;
      return sendJson(
        res,
        429,
        { ok: false, error: 'ratelimited' },
        { 'retry-after': String(state.retryAfterSeconds) },
      );
    }
    const needed = scopeFor(method, args);
    if (needed && !grant.scopes.includes(needed))
      return sendJson(res, 200, {
        ok: false,
        error: 'missing_scope',
        needed,
        provided: grant.scopes.join(','),
      });
    const me = grant.user;
    switch (method) {
      case 'auth.revoke':
        grant.revoked = true;
        state.revoked.push(token!);
        return sendJson(res, 200, { ok: true, revoked: true });
      case 'auth.test':
        return sendJson(res, 200, { ok: true, user_id: me, team_id: 'T0TEAM', user: users.get(me)?.name });
      case 'users.info': {
        const user = users.get(args.user ?? '');
        if (!user) return sendJson(res, 200, { ok: false, error: 'user_not_found' });
        return sendJson(res, 200, {
          ok: true,
          user: { id: user.id, name: user.name, real_name: user.name, profile: { display_name: user.name } },
        });
      }
      case 'search.messages': {
        const needle = args.query ?? '';
        const matches = [...channels.values()]
          .filter((c) => !c.im)
          .flatMap((c) =>
            c.messages
              .filter((m) => m.text.includes(needle))
              .map((m) => ({
                ts: m.ts,
                text: m.text,
                user: m.user,
                username: users.get(m.user)?.name,
                channel: { id: c.id, name: c.name },
                permalink: `https://team.slack.example/archives/${c.id}/p${m.ts.replace('.', '')}`,
                ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
              })),
          )
          .sort((a, b) => Number(b.ts) - Number(a.ts));
        return sendJson(res, 200, { ok: true, messages: { matches, total: matches.length } });
      }
      case 'conversations.list':
        return sendJson(res, 200, {
          ok: true,
          channels: [...channels.values()]
            .filter((c) => c.im && (c.im === me || c.id.includes(me)))
            .map((c) => ({ id: c.id, is_im: true, user: c.im })),
        });
      case 'conversations.history': {
        const channel = channels.get(args.channel ?? '');
        if (!channel) return sendJson(res, 200, { ok: false, error: 'channel_not_found' });
        const oldest = Number(args.oldest ?? 0);
        const messages = channel.messages
          .filter((m) => !m.thread_ts || m.thread_ts === m.ts)
          .filter((m) => Number(m.ts) > oldest)
          .sort((a, b) => Number(b.ts) - Number(a.ts));
        return sendJson(res, 200, { ok: true, messages });
      }
      case 'conversations.replies': {
        const channel = channels.get(args.channel ?? '');
        if (!channel) return sendJson(res, 200, { ok: false, error: 'channel_not_found' });
        const root = args.ts;
        const oldest = Number(args.oldest ?? 0);
        const messages = channel.messages
          .filter((m) => m.ts === root || m.thread_ts === root)
          .filter((m) => m.ts === root || Number(m.ts) > oldest)
          .sort((a, b) => Number(a.ts) - Number(b.ts));
        return sendJson(res, 200, { ok: true, messages });
      }
      default:
        return sendJson(res, 200, { ok: false, error: 'unknown_method' });
    }
  });

  const post = (channel: string, user: string, text: string, thread_ts?: string) => {
    const ts = `${++clock}.000100`;
    channels.get(channel)!.messages.push({ ts, user, text, ...(thread_ts ? { thread_ts } : {}) });
    return ts;
  };

  return {
    state,
    env: {
      SLACK_CLIENT_ID: 'slack-test-client',
      SLACK_CLIENT_SECRET: 'slack-test-secret',
      SLACK_AUTH_URL: `${server.base}/oauth/v2/authorize`,
      SLACK_API_URL: `${server.base}/api/`,
    },
    person,
    /** A channel; `private` ones need groups:history to read, public ones channels:history. */
    channel(id: string, name: string, options: { private?: boolean } = {}) {
      channels.set(id, { id, name, private: options.private, messages: [] });
    },
    /** A direct-message conversation between `me` and `other`. */
    im(me: string, other: string) {
      const id = `D${me}${other}`;
      channels.set(id, { id, im: other, messages: [] });
      return id;
    },
    /** Posts a message (in a thread when `thread_ts` is given); answers its ts. */
    post,
    revokeAll() {
      for (const grant of tokens.values()) grant.revoked = true;
    },
    stop: server.stop,
  };
}
