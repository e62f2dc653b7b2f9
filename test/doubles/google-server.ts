import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { gmailMessage, type GmailPart } from './gmail-mime';
import { bearerOf, listen, newToken, readBody, sendJson as json } from './http';

/*
 * A local stand-in for Google's OAuth, Gmail and Calendar endpoints, reached by the product only
 * through GOOGLE_AUTH_URL, GOOGLE_TOKEN_URL and GOOGLE_API_ROOT_URL. It consents at once, issues
 * tokens that expire, refreshes and revokes them, and records what the product sent.
 */

interface Grant {
  refreshToken: string;
  scope: string;
  revoked: boolean;
  /** Whose mailbox and calendar the grant opens. */
  account: string;
}

/** A message in a mailbox of the double, as the test wrote it. */
export interface MessageSpec {
  from: string;
  to?: string;
  cc?: string;
  subject: string;
  text?: string;
  html?: string;
  /** Extra headers (List-Unsubscribe, Auto-Submitted...). */
  headers?: Record<string, string>;
  labelIds?: string[];
  threadId?: string;
  /** Default: now. */
  date?: Date;
}

interface StoredMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  internalDate: number;
  headers: Array<{ name: string; value: string }>;
  snippet: string;
  text?: string;
  html?: string;
  /** A message delivered as raw bytes: its MIME tree as Gmail answers it. */
  payload?: GmailPart;
}

type HistoryRecord = {
  id: number;
  messagesAdded?: Array<{ message: { id: string; threadId: string; labelIds: string[] } }>;
  labelsRemoved?: Array<{ message: { id: string; threadId: string }; labelIds: string[] }>;
  messagesDeleted?: Array<{ message: { id: string; threadId: string } }>;
};

/** One Google account: its mailbox, history and calendar. */
class Account {
  historyId = 1000;
  /** History before this id is forgotten (a stale cursor answers 404). */
  oldestHistoryId = 1000;
  readonly messages = new Map<string, StoredMessage>();
  readonly history: HistoryRecord[] = [];
  readonly events = new Map<string, Record<string, unknown>>();
  private seq = 0;
  /** Told of each message stored, with its labels (the double's Gmail push). */
  onStored?: (labelIds: string[], historyId: number) => void;
  constructor(readonly email: string) {}

  /** Adds a message to the inbox (or with the labels given), recorded in the history. */
  addMessage(spec: MessageSpec): StoredMessage {
    const id = this.nextId();
    const date = spec.date ?? new Date();
    const headers = [
      { name: 'From', value: spec.from },
      { name: 'To', value: spec.to ?? this.email },
      ...(spec.cc ? [{ name: 'Cc', value: spec.cc }] : []),
      { name: 'Subject', value: spec.subject },
      { name: 'Date', value: date.toUTCString() },
      { name: 'Message-ID', value: `<${id}@mail.example>` },
      ...Object.entries(spec.headers ?? {}).map(([name, value]) => ({ name, value })),
    ];
    return this.store({
      id,
      threadId: spec.threadId ?? `t${id.slice(1)}`,
      labelIds: spec.labelIds ?? ['INBOX', 'UNREAD'],
      internalDate: date.getTime(),
      headers,
      snippet: (spec.text ?? spec.html?.replace(/<[^>]+>/g, ' ') ?? '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 120),
      text: spec.text,
      html: spec.html,
    });
  }

  /**
   * Delivers a raw RFC 5322 message as Gmail would hold it: the bytes as they are (headers, MIME
   * tree, charsets), with the labels given (default: the inbox, unread).
   */
  addRaw(raw: Buffer, options: { labelIds?: string[]; threadId?: string; date?: Date } = {}): StoredMessage {
    const { payload, snippet } = gmailMessage(raw);
    const id = this.nextId();
    return this.store({
      id,
      threadId: options.threadId ?? `t${id.slice(1)}`,
      labelIds: options.labelIds ?? ['INBOX', 'UNREAD'],
      internalDate: (options.date ?? new Date()).getTime(),
      headers: payload.headers,
      snippet,
      payload,
    });
  }

  private nextId(): string {
    return `m${(++this.seq).toString(16).padStart(8, '0')}${randomBytes(2).toString('hex')}`;
  }

  /** Keeps a message and records its arrival in the history. */
  private store(message: StoredMessage): StoredMessage {
    this.messages.set(message.id, message);
    this.history.push({
      id: ++this.historyId,
      messagesAdded: [
        { message: { id: message.id, threadId: message.threadId, labelIds: message.labelIds } },
      ],
    });
    this.onStored?.(message.labelIds, this.historyId);
    return message;
  }

  /** The user answers a thread (a SENT message from the account). */
  reply(threadId: string, text = 'Thanks, will do.'): StoredMessage {
    const first = [...this.messages.values()].find((m) => m.threadId === threadId);
    return this.addMessage({
      from: this.email,
      to: first?.headers.find((h) => h.name === 'From')?.value ?? 'someone@example.com',
      subject: `Re: ${first?.headers.find((h) => h.name === 'Subject')?.value ?? ''}`,
      text,
      threadId,
      labelIds: ['SENT'],
    });
  }

  /** The user archives a message (it leaves the inbox). */
  archive(id: string): void {
    const message = this.messages.get(id);
    if (!message) return;
    message.labelIds = message.labelIds.filter((l) => l !== 'INBOX');
    this.history.push({
      id: ++this.historyId,
      labelsRemoved: [{ message: { id, threadId: message.threadId }, labelIds: ['INBOX'] }],
    });
  }

  /** Forgets the history so far, as Gmail does after about a week. */
  forgetHistory(): void {
    this.oldestHistoryId = this.historyId + 1;
  }

  /** An upcoming event in which the account is an attendee who has not answered. */
  addInvitation(spec: {
    summary: string;
    start: Date;
    minutes?: number;
    organizer?: string;
    location?: string;
  }) {
    const id = `evt${(++this.seq).toString(16)}`;
    const end = new Date(spec.start.getTime() + (spec.minutes ?? 30) * 60_000);
    const organizer = spec.organizer ?? 'organiser@example.com';
    const event = {
      id,
      status: 'confirmed',
      summary: spec.summary,
      location: spec.location,
      start: { dateTime: spec.start.toISOString() },
      end: { dateTime: end.toISOString() },
      organizer: { email: organizer, displayName: organizer.split('@')[0] },
      attendees: [
        { email: organizer, organizer: true, responseStatus: 'accepted' },
        { email: this.email, self: true, responseStatus: 'needsAction' },
      ],
      htmlLink: `https://calendar.example/${id}`,
    };
    this.events.set(id, event);
    return event;
  }
}

/** The MIME tree of a message the test wrote as text and HTML: multipart/alternative. */
const written = (m: StoredMessage) => {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const parts = [
    ...(m.text !== undefined
      ? [
          {
            partId: '0',
            mimeType: 'text/plain',
            filename: '',
            body: { size: m.text.length, data: b64(m.text) },
          },
        ]
      : []),
    ...(m.html !== undefined
      ? [
          {
            partId: '1',
            mimeType: 'text/html',
            filename: '',
            body: { size: m.html.length, data: b64(m.html) },
          },
        ]
      : []),
  ];
  return {
    mimeType: 'multipart/alternative',
    filename: '',
    headers: [...m.headers, { name: 'Content-Type', value: 'multipart/alternative; boundary="b"' }],
    body: { size: 0 },
    parts,
  };
};

/** A message as `messages.get` (format=full) answers it. */
const full = (m: StoredMessage) => ({
  id: m.id,
  threadId: m.threadId,
  labelIds: m.labelIds,
  snippet: m.snippet,
  internalDate: String(m.internalDate),
  payload: m.payload ?? written(m),
});

export async function startGoogleDouble(options: { accessTokenSeconds?: number } = {}) {
  const accounts = new Map<string, Account>();
  const accountOf = (email: string) => {
    let account = accounts.get(email);
    if (!account) {
      accounts.set(email, (account = new Account(email)));
      account.onStored = (labelIds, historyId) => publish(email, labelIds, historyId);
    }
    return account;
  };
  /**
   * Gmail's push as Google documents it: `users.watch` names a Pub/Sub topic; a change to a watched
   * label publishes `{ emailAddress, historyId }` there, and the topic's push subscription POSTs it,
   * base64 in `message.data`, to its endpoint (set by the test, as an operator sets it in Cloud
   * Console). A watch lasts 7 days.
   */
  const watches = new Map<string, { topicName: string; labelIds: string[]; expiration: number }>();
  const pubsub = {
    /** The push subscription's endpoint per topic (a URL with its token), as the test sets it. */
    endpoints: new Map<string, string>(),
    /** What each push delivery was answered. */
    deliveries: [] as Array<{ emailAddress: string; status: number }>,
  };
  let published = 0;
  function publish(email: string, labelIds: string[], historyId: number) {
    const watch = watches.get(email);
    if (!watch || watch.expiration < Date.now()) return;
    if (watch.labelIds.length > 0 && !labelIds.some((l) => watch.labelIds.includes(l))) return;
    const endpoint = pubsub.endpoints.get(watch.topicName);
    if (!endpoint) return;
    const data = Buffer.from(JSON.stringify({ emailAddress: email, historyId })).toString('base64');
    const messageId = String(++published);
    void fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        message: { data, messageId, message_id: messageId, publishTime: new Date().toISOString() },
        subscription: `${watch.topicName.replace('/topics/', '/subscriptions/')}-push`,
      }),
    })
      .then((res) => pubsub.deliveries.push({ emailAddress: email, status: res.status }))
      .catch(() => pubsub.deliveries.push({ emailAddress: email, status: 0 }));
  }
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
    /** Whose account the next consents open. */
    consentAs: 'me@example.com',
    /** Scopes the user unticks on the next consents (Google's consent lets them leave some out). */
    consentWithout: [] as string[],
    /**
     * Every API call answers 401 `invalid_token`, fresh tokens included, while the token endpoint
     * still refreshes: what an account whose API access was cut (an administrator's block, a
     * suspended account) gets, where a refresh does not cure the 401.
     */
    refuseAccess: false,
    /** The next this-many API calls answer 429 with Retry-After (seconds). */
    rateLimitNext: 0,
    retryAfterSeconds: 120,
    /** Mail and calendar API calls, `METHOD path` each. */
    calls: [] as string[],
    /** Event patches (RSVPs) as the product sent them. */
    patches: [] as Array<{ eventId: string; sendUpdates: string | null; body: Record<string, unknown> }>,
  };

  /** The scopes Google accepts for a call (any one of them), as its API reference lists them. */
  const scopesFor = (method: string, pathname: string): string[] | null => {
    if (/^\/gmail\/v1\/users\/me\/(messages\/send|drafts)/.test(pathname))
      return ['gmail.compose', 'gmail.send', 'gmail.modify'].filter(
        (s) => s !== 'gmail.send' || pathname.endsWith('/send'),
      );
    // users.watch and users.stop take any of the reading scopes.
    if (/^\/gmail\/v1\/users\/me\/(watch|stop)$/.test(pathname))
      return ['gmail.readonly', 'gmail.modify', 'gmail.metadata'];
    if (pathname.startsWith('/gmail/v1/'))
      return method === 'GET' ? ['gmail.readonly', 'gmail.modify', 'gmail.metadata'] : ['gmail.modify'];
    if (pathname.startsWith('/calendar/v3/'))
      return method === 'GET'
        ? ['calendar', 'calendar.events', 'calendar.readonly', 'calendar.events.readonly']
        : ['calendar', 'calendar.events'];
    return null;
  };
  const issueAccess = (grant: Grant) => {
    const token = newToken('ya29');
    accessTokens.set(token, { grant, expiresAt: Date.now() + state.accessTokenSeconds * 1000 });
    return token;
  };
  /** The grant behind a live bearer token, or null (then the API answers 401). */
  const bearer = (req: IncomingMessage) => {
    const token = bearerOf(req);
    const entry = token ? accessTokens.get(token) : undefined;
    if (!entry || entry.grant.revoked || entry.expiresAt < Date.now()) return null;
    return entry.grant;
  };

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const body = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      const redirect = new URL(url.searchParams.get('redirect_uri')!);
      if (state.deny) redirect.searchParams.set('error', 'access_denied');
      else {
        const code = newToken('code');
        codes.set(code, {
          refreshToken: newToken('1//refresh'),
          scope: (url.searchParams.get('scope') ?? '')
            .split(' ')
            .filter((s) => !state.consentWithout.some((left) => s.endsWith(`/auth/${left}`)))
            .join(' '),
          revoked: false,
          account: state.consentAs,
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
    if (!grant || state.refuseAccess) {
      res.setHeader('www-authenticate', 'Bearer realm="https://accounts.google.com/", error="invalid_token"');
      return json(res, 401, {
        error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' },
      });
    }
    const needs = scopesFor(req.method ?? 'GET', url.pathname);
    if (
      needs &&
      !needs.some((scope) => grant.scope.split(' ').includes(`https://www.googleapis.com/auth/${scope}`))
    )
      return json(res, 403, {
        error: {
          code: 403,
          message: 'Request had insufficient authentication scopes.',
          status: 'PERMISSION_DENIED',
          errors: [{ reason: 'insufficientPermissions', message: 'Insufficient Permission' }],
          details: [{ reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' }],
        },
      });
    state.calls.push(`${req.method} ${url.pathname}`);
    if (state.rateLimitNext > 0) {
      state.rateLimitNext--;
      return json(
        res,
        429,
        { error: { code: 429, message: 'Too many requests', errors: [{ reason: 'rateLimitExceeded' }] } },
        { 'retry-after': String(state.retryAfterSeconds) },
      );
    }
    const account = accountOf(grant.account);
    const gmail = /^\/gmail\/v1\/users\/me\/(.+)$/.exec(url.pathname)?.[1];
    if (req.method === 'GET' && gmail === 'profile')
      return json(res, 200, {
        emailAddress: account.email,
        historyId: String(account.historyId),
        messagesTotal: account.messages.size,
      });
    if (req.method === 'POST' && gmail === 'watch') {
      const asked = JSON.parse(body) as {
        topicName?: string;
        labelIds?: string[];
        labelFilterBehavior?: string;
      };
      if (!asked.topicName || !/^projects\/[^/]+\/topics\/[^/]+$/.test(asked.topicName))
        return json(res, 400, {
          error: { code: 400, message: 'Invalid topicName', status: 'INVALID_ARGUMENT' },
        });
      const expiration = Date.now() + 7 * 24 * 3600_000;
      watches.set(account.email, { topicName: asked.topicName, labelIds: asked.labelIds ?? [], expiration });
      return json(res, 200, { historyId: String(account.historyId), expiration: String(expiration) });
    }
    if (req.method === 'POST' && gmail === 'stop') {
      watches.delete(account.email);
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'GET' && gmail === 'messages') {
      const label = url.searchParams.getAll('labelIds');
      const all = [...account.messages.values()]
        .filter((m) => label.every((l) => m.labelIds.includes(l)))
        .sort((a, b) => b.internalDate - a.internalDate);
      const start = Number(url.searchParams.get('pageToken') ?? 0);
      const size = Math.min(500, Number(url.searchParams.get('maxResults') ?? 100));
      const page = all.slice(start, start + size);
      return json(res, 200, {
        messages: page.map((m) => ({ id: m.id, threadId: m.threadId })),
        ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}),
        resultSizeEstimate: all.length,
      });
    }
    const messageId = gmail && /^messages\/([^/]+)$/.exec(gmail)?.[1];
    if (req.method === 'GET' && messageId) {
      const message = account.messages.get(messageId);
      if (!message) return json(res, 404, { error: { code: 404, message: 'Not Found' } });
      return json(res, 200, full(message));
    }
    const threadId = gmail && /^threads\/([^/]+)$/.exec(gmail)?.[1];
    if (req.method === 'GET' && threadId) {
      const messages = [...account.messages.values()]
        .filter((m) => m.threadId === threadId)
        .sort((a, b) => a.internalDate - b.internalDate);
      if (messages.length === 0) return json(res, 404, { error: { code: 404, message: 'Not Found' } });
      // format=metadata answers only the headers asked for (metadataHeaders), as Gmail does.
      const format = url.searchParams.get('format') ?? 'full';
      const asked = url.searchParams.getAll('metadataHeaders').map((h) => h.toLowerCase());
      return json(res, 200, {
        id: threadId,
        messages: messages.map((m) =>
          format === 'metadata'
            ? {
                id: m.id,
                threadId: m.threadId,
                labelIds: m.labelIds,
                snippet: m.snippet,
                internalDate: String(m.internalDate),
                payload: {
                  headers: m.headers.filter(
                    (h) => asked.length === 0 || asked.includes(h.name.toLowerCase()),
                  ),
                },
              }
            : full(m),
        ),
      });
    }
    if (req.method === 'GET' && gmail === 'history') {
      const start = Number(url.searchParams.get('startHistoryId'));
      if (!start || start < account.oldestHistoryId)
        return json(res, 404, { error: { code: 404, message: 'Requested entity was not found.' } });
      return json(res, 200, {
        history: account.history.filter((h) => h.id > start),
        historyId: String(account.historyId),
      });
    }
    if (req.method === 'GET' && url.pathname === '/calendar/v3/calendars/primary/events') {
      const from = Date.parse(url.searchParams.get('timeMin') ?? '') || 0;
      const to = Date.parse(url.searchParams.get('timeMax') ?? '') || Infinity;
      const items = [...account.events.values()].filter((e) => {
        const at = Date.parse((e.start as { dateTime: string }).dateTime);
        return at >= from && at < to;
      });
      return json(res, 200, { items });
    }
    const eventId = /^\/calendar\/v3\/calendars\/primary\/events\/([^/]+)$/.exec(url.pathname)?.[1];
    if (eventId && (req.method === 'GET' || req.method === 'PATCH')) {
      const event = account.events.get(eventId);
      if (!event) return json(res, 404, { error: { code: 404, message: 'Not Found' } });
      if (req.method === 'PATCH') {
        const patch = JSON.parse(body) as Record<string, unknown>;
        state.patches.push({ eventId, sendUpdates: url.searchParams.get('sendUpdates'), body: patch });
        Object.assign(event, patch);
      }
      return json(res, 200, event);
    }
    if (req.method === 'POST' && url.pathname === '/gmail/v1/users/me/messages/send') {
      const message = JSON.parse(body) as { raw: string; threadId?: string };
      state.sent.push(message);
      // Gmail keeps what was sent in the mailbox, labelled SENT, in the thread it named.
      const stored = account.addRaw(Buffer.from(message.raw, 'base64url'), {
        labelIds: ['SENT'],
        threadId: message.threadId,
      });
      return json(res, 200, { id: stored.id, threadId: stored.threadId });
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
  const base = server.base;

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
    /** The Google account `email` (created empty on first use): its mailbox and calendar. */
    account: accountOf,
    /** The mailboxes watched now (`users.watch`), by address. */
    watches,
    /** The Pub/Sub side of Gmail's push: the test names each topic's push endpoint. */
    pubsub,
    /** Revokes a grant as the user would from their Google account page. */
    revokeAll() {
      for (const grant of grants.values()) grant.revoked = true;
    },
    /** Expires every access token now, so the next call must refresh. */
    expireAccessTokens() {
      for (const entry of accessTokens.values()) entry.expiresAt = 0;
    },
    stop: server.stop,
  };
}
