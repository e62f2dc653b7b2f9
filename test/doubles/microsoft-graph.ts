import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { simpleParser, type AddressObject } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { bearerOf, listen, newToken, readBody, sendJson as json } from './http';

/*
 * A local stand-in for Microsoft's identity platform (OAuth 2.0, v2 endpoints) and Microsoft Graph's
 * mail and calendar, reached by the product only through MICROSOFT_AUTH_URL and MICROSOFT_GRAPH_URL.
 * Built from Microsoft's published API reference: delta query per mail folder (`@removed`, 410 for a
 * forgotten state), MIME sending and drafts as base64 text, conversations, the calendar view, event
 * responses, 429 with Retry-After, and the error bodies Graph answers.
 */

type Folder = 'inbox' | 'sentitems' | 'drafts';
const FOLDER_IDS: Record<Folder, string> = {
  inbox: 'AAMkInbox',
  sentitems: 'AAMkSentItems',
  drafts: 'AAMkDrafts',
};
const FOLDER_NAMES: Record<Folder, string> = { inbox: 'Inbox', sentitems: 'Sent Items', drafts: 'Drafts' };
const folderOf = (idOrName: string): Folder | undefined =>
  (Object.keys(FOLDER_IDS) as Folder[]).find(
    (f) => f === idOrName.toLowerCase() || FOLDER_IDS[f] === idOrName,
  );

interface Recipient {
  emailAddress: { name?: string; address: string };
}

/** A message as Graph keeps it, with its MIME. */
export interface GraphMessage {
  id: string;
  conversationId: string;
  parentFolderId: string;
  receivedDateTime: string;
  sentDateTime: string;
  subject: string;
  from?: Recipient;
  sender?: Recipient;
  toRecipients: Recipient[];
  ccRecipients: Recipient[];
  internetMessageId: string;
  internetMessageHeaders: Array<{ name: string; value: string }>;
  bodyPreview: string;
  isRead: boolean;
  isDraft: boolean;
  raw: Buffer;
}

export interface MessageSpec {
  from: string;
  to?: string;
  cc?: string;
  subject: string;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
  date?: Date;
  folder?: Folder;
}

/** A change a delta round reports: the message's id, and whether it left the folder. */
interface Change {
  seq: number;
  folder: Folder;
  id: string;
  removed: boolean;
}

const graphId = (prefix: string) => `${prefix}${randomBytes(18).toString('base64url')}=`;
/** Graph's wall-clock times: seven fractional digits, no offset (UTC when asked for). */
const graphTime = (d: Date) => `${d.toISOString().slice(0, 19)}.0000000`;

/** A wall-clock time in an IANA zone, as the instant it is. */
function instantIn(dateTime: string, zone: string): Date {
  const guess = Date.parse(`${dateTime.slice(0, 19)}Z`);
  const wall = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
    .format(new Date(guess))
    .replace(', ', 'T');
  return new Date(guess - (Date.parse(`${wall}Z`) - guess));
}

const recipients = (field: AddressObject | AddressObject[] | undefined): Recipient[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((a) => a.value)
    .filter((a) => a.address)
    .map((a) => ({ emailAddress: { name: a.name || a.address!, address: a.address! } }));

/** One Microsoft account: its mail folders, their change log, and its calendar. */
class Account {
  readonly messages = new Map<string, GraphMessage>();
  readonly events = new Map<string, Record<string, unknown>>();
  readonly changes: Change[] = [];
  seq = 0;
  /** Delta tokens before this sequence number are forgotten (they answer 410). */
  oldestDelta = 0;
  constructor(readonly email: string) {}

  /** Told of each change, as Graph's change notifications see it. */
  onChange?: (
    resource: 'messages' | 'events',
    id: string,
    changeType: 'created' | 'updated' | 'deleted',
  ) => void;

  private record(folder: Folder, id: string, removed: boolean) {
    this.changes.push({ seq: ++this.seq, folder, id, removed });
    this.onChange?.('messages', id, removed ? 'deleted' : 'created');
  }

  /** Stores a raw RFC 5322 message in a folder, in the conversation its In-Reply-To or References name. */
  async addRaw(
    raw: Buffer,
    options: { folder?: Folder; date?: Date; isDraft?: boolean } = {},
  ): Promise<GraphMessage> {
    const mail = await simpleParser(raw, { skipHtmlToText: false });
    const folder = options.folder ?? 'inbox';
    const date = options.date ?? mail.date ?? new Date();
    const refs = [
      ...(Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : []),
      ...(mail.inReplyTo ? [mail.inReplyTo] : []),
    ];
    const parent = [...this.messages.values()].find((m) => refs.includes(m.internetMessageId));
    const from = recipients(mail.from)[0];
    const message: GraphMessage = {
      id: graphId('AAMkAG'),
      conversationId: parent?.conversationId ?? graphId('AAQkAG'),
      parentFolderId: FOLDER_IDS[folder],
      receivedDateTime: date.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      sentDateTime: date.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      subject: mail.subject ?? '',
      from,
      sender: from,
      toRecipients: recipients(mail.to),
      ccRecipients: recipients(mail.cc),
      internetMessageId: mail.messageId ?? `<${randomBytes(8).toString('hex')}@graph.example>`,
      internetMessageHeaders: mail.headerLines.map((h) => ({
        name: h.line.slice(0, h.line.indexOf(':')),
        value: h.line.slice(h.line.indexOf(':') + 1).trim(),
      })),
      bodyPreview: (mail.text ?? '').slice(0, 255),
      isRead: folder !== 'inbox',
      isDraft: options.isDraft ?? folder === 'drafts',
      raw,
    };
    this.messages.set(message.id, message);
    this.record(folder, message.id, false);
    return message;
  }

  /** Stores a message written from its parts (a real MIME message, as a sender's app would write it). */
  async addMessage(spec: MessageSpec): Promise<GraphMessage> {
    const date = spec.date ?? new Date();
    const raw = await new MailComposer({
      from: spec.from,
      to: spec.to ?? this.email,
      cc: spec.cc,
      subject: spec.subject,
      text: spec.text,
      html: spec.html,
      date,
      messageId: `<${randomBytes(8).toString('hex')}@mail.example>`,
      headers: spec.headers,
    })
      .compile()
      .build();
    return this.addRaw(raw, { folder: spec.folder, date });
  }

  /** Deletes a message (a delta round reports it `@removed`). */
  remove(id: string) {
    const message = this.messages.get(id);
    if (!message) return;
    this.messages.delete(id);
    this.record(folderOf(message.parentFolderId)!, id, true);
  }

  /** Moves a message: it leaves one folder's delta and enters the other's. */
  move(id: string, to: Folder) {
    const message = this.messages.get(id);
    if (!message) return;
    this.record(folderOf(message.parentFolderId)!, id, true);
    message.parentFolderId = FOLDER_IDS[to];
    this.record(to, id, false);
  }

  /** Graph drops its sync state: every delta token issued so far answers 410. */
  expireDeltas() {
    this.oldestDelta = this.seq + 1;
  }

  /** Stores an event of the user's calendar (Graph's fields; id and link filled in). */
  addEvent(event: Record<string, unknown>) {
    const stored = {
      isCancelled: false,
      isAllDay: false,
      isOrganizer: false,
      isReminderOn: true,
      reminderMinutesBeforeStart: 15,
      attendees: [],
      ...event,
      id: graphId('AAMkAGEv'),
      webLink: 'https://outlook.live.com/calendar/item',
    } as Record<string, unknown> & { id: string };
    this.events.set(stored.id, stored);
    this.onChange?.('events', stored.id, 'created');
    return stored;
  }
}

/** The fields of a message a `$select` asks for (Graph always answers the id). */
function selected(m: GraphMessage, select: string | null) {
  const { raw: _raw, ...all } = m;
  const fields = select?.split(',').map((f) => f.trim()) ?? [];
  const picked: Record<string, unknown> = { '@odata.etag': `W/"${m.id.slice(-8)}"`, id: m.id };
  if (fields.length === 0) {
    const { internetMessageHeaders: _headers, ...usual } = all;
    return { ...picked, ...usual };
  }
  for (const f of fields) if (f in all) picked[f] = all[f as keyof typeof all];
  return picked;
}

/** Graph's `$filter` on a date, as its message listings and delta support it (`ge`/`gt`). */
function dateFilter(filter: string | null): ((m: GraphMessage) => boolean) | null | 'bad' {
  if (!filter) return null;
  const match = /^(receivedDateTime|sentDateTime) (ge|gt) (\S+)$/.exec(filter.trim());
  if (!match) return 'bad';
  const at = Date.parse(match[3]!);
  const field = match[1] as 'receivedDateTime' | 'sentDateTime';
  return (m) => (match[2] === 'ge' ? Date.parse(m[field]) >= at : Date.parse(m[field]) > at);
}

/** Graph's answer to a `$filter` it does not support. */
const badFilter = (res: ServerResponse) =>
  graphError(res, 400, 'ErrorInvalidUrlQueryFilter', 'The query filter contains one or more invalid nodes.');

const graphError = (res: ServerResponse, status: number, code: string, message: string, headers = {}) =>
  json(res, status, { error: { code, message, innerError: { 'request-id': newToken('req') } } }, headers);

interface Grant {
  account: string;
  scopes: string[];
  revoked: boolean;
}

/** A change-notification subscription, as Graph keeps it. */
interface Subscription {
  id: string;
  account: string;
  resource: string;
  changeType: string;
  notificationUrl: string;
  lifecycleNotificationUrl?: string;
  clientState?: string;
  expirationDateTime: string;
}

/** Graph's longest subscription to Outlook messages or events: under 7 days. */
const MAX_SUBSCRIPTION_MINUTES = 10_080;
const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

/**
 * Graph's validation of a notification address: a POST with `validationToken`, text/plain, no body;
 * the address must answer 200 with the token as text within 10 seconds.
 */
async function validates(address: string): Promise<boolean> {
  const token = `Validation: Testing client application reachability for subscription Request-Id: ${newToken('r')}`;
  const url = new URL(address);
  url.searchParams.set('validationToken', token);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      signal: AbortSignal.timeout(10_000),
    });
    return res.status === 200 && (await res.text()) === token;
  } catch {
    return false;
  }
}

/** Graph calls https addresses only; the stand-in also takes the loopback's, where tests listen. */
const reachableAddress = (address: unknown) => {
  if (typeof address !== 'string' || !URL.canParse(address)) return false;
  const url = new URL(address);
  return url.protocol === 'https:' || ['127.0.0.1', 'localhost'].includes(url.hostname);
};

export async function startGraphDouble(options: { accessTokenSeconds?: number } = {}) {
  const accounts = new Map<string, Account>();
  const accountOf = (email: string) => {
    let account = accounts.get(email);
    if (!account) {
      accounts.set(email, (account = new Account(email)));
      account.onChange = (resource, id, changeType) => notify(email, resource, id, changeType);
    }
    return account;
  };
  const subscriptions = new Map<string, Subscription>();
  const notifications: Array<{ subscriptionId: string; status: number; lifecycleEvent?: string }> = [];
  const codes = new Map<string, Grant>();
  const refreshTokens = new Map<string, Grant>();
  const accessTokens = new Map<string, { grant: Grant; expiresAt: number }>();
  const state = {
    accessTokenSeconds: options.accessTokenSeconds ?? 3600,
    /** The consent redirects back with `error=access_denied` instead of a code. */
    deny: false,
    /** Whose account the next consents open. */
    consentAs: 'me@outlook.example',
    /** Scopes the user's consent leaves out (an administrator's policy, say). */
    consentWithout: [] as string[],
    tokenRequests: [] as Array<Record<string, string>>,
    /** Graph calls, `METHOD path` each. */
    calls: [] as string[],
    /** The next this-many Graph calls answer 429 with Retry-After. */
    rateLimitNext: 0,
    retryAfterSeconds: 1,
    /** Every Graph call answers 401, fresh tokens included. */
    refuseAccess: false,
    /** MIME messages sent through sendMail, and saved as drafts. */
    sent: [] as Buffer[],
    drafts: [] as Buffer[],
    /** Answers to invitations, as the product gave them. */
    responses: [] as Array<{ eventId: string; action: string; sendResponse: boolean }>,
  };
  const CLIENT = { id: 'haven-test-ms-client', secret: 'haven-test-ms-secret' };

  const issueTokens = (grant: Grant) => {
    const access = newToken('EwB');
    const refresh = newToken('M.C5');
    accessTokens.set(access, { grant, expiresAt: Date.now() + state.accessTokenSeconds * 1000 });
    refreshTokens.set(refresh, grant);
    return {
      token_type: 'Bearer',
      scope: grant.scopes.join(' '),
      expires_in: state.accessTokenSeconds,
      ext_expires_in: state.accessTokenSeconds,
      access_token: access,
      // A refresh token only for a consent that granted offline_access.
      ...(grant.scopes.includes('offline_access') ? { refresh_token: refresh } : {}),
    };
  };

  /** The OAuth 2.0 endpoints: the consent (at once) and the token endpoint. */
  function identity(req: IncomingMessage, res: ServerResponse, url: URL, body: string): boolean {
    if (req.method === 'GET' && url.pathname === '/common/oauth2/v2.0/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri')!);
      if (state.deny) {
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set('error_description', 'The user has denied access to the scope requested.');
      } else {
        const code = newToken('M.code');
        const asked = (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
        codes.set(code, {
          account: state.consentAs,
          scopes: asked.filter((s) => !state.consentWithout.includes(s)),
          revoked: false,
        });
        redirect.searchParams.set('code', code);
      }
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: redirect.href });
      res.end();
      return true;
    }
    if (req.method === 'POST' && url.pathname === '/common/oauth2/v2.0/token') {
      const form = Object.fromEntries(new URLSearchParams(body));
      state.tokenRequests.push(form);
      if (form.client_id !== CLIENT.id || form.client_secret !== CLIENT.secret) {
        json(res, 401, {
          error: 'invalid_client',
          error_description: 'AADSTS7000215: Invalid client secret provided.',
          error_codes: [7000215],
        });
        return true;
      }
      const refused = () =>
        json(res, 400, {
          error: 'invalid_grant',
          error_description:
            'AADSTS50173: The provided grant has expired due to it being revoked, a fresh auth token is needed.',
          error_codes: [50173],
        });
      if (form.grant_type === 'authorization_code') {
        const grant = codes.get(form.code ?? '');
        codes.delete(form.code ?? ''); // a code works once
        if (!grant) refused();
        else json(res, 200, issueTokens(grant));
        return true;
      }
      if (form.grant_type === 'refresh_token') {
        const grant = refreshTokens.get(form.refresh_token ?? '');
        if (!grant || grant.revoked) refused();
        else json(res, 200, issueTokens(grant));
        return true;
      }
      json(res, 400, { error: 'unsupported_grant_type', error_description: 'AADSTS70003' });
      return true;
    }
    return false;
  }

  /** The scope a Graph call needs (any of them), as the API reference lists them. */
  const scopesFor = (method: string, path: string): string[] => {
    // A subscription needs the scope of its resource, checked where it is created.
    if (path === '/me' || path.startsWith('/subscriptions')) return [];
    if (path === '/me/sendMail') return ['Mail.Send'];
    if (path.startsWith('/me/mailFolders') || path.startsWith('/me/messages'))
      return method === 'GET' ? ['Mail.Read', 'Mail.ReadWrite'] : ['Mail.ReadWrite'];
    return method === 'GET' ? ['Calendars.Read', 'Calendars.ReadWrite'] : ['Calendars.ReadWrite'];
  };

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const body = await readBody(req);
    if (identity(req, res, url, body)) return;
    if (!url.pathname.startsWith('/v1.0/'))
      return graphError(res, 400, 'BadRequest', `Invalid version: ${url.pathname.split('/')[1]}`);
    const path = url.pathname.slice('/v1.0'.length);
    const method = req.method ?? 'GET';
    const token = bearerOf(req);
    const entry = token ? accessTokens.get(token) : undefined;
    if (!entry || entry.grant.revoked || entry.expiresAt < Date.now() || state.refuseAccess)
      return graphError(
        res,
        401,
        'InvalidAuthenticationToken',
        'Access token has expired or is not yet valid.',
      );
    const needs = scopesFor(method, path);
    if (needs.length > 0 && !needs.some((s) => entry.grant.scopes.includes(s)))
      return graphError(res, 403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    state.calls.push(`${method} ${path}`);
    if (state.rateLimitNext > 0) {
      state.rateLimitNext--;
      return graphError(
        res,
        429,
        'TooManyRequests',
        `Application is over its MailboxConcurrency limit. Please retry after ${state.retryAfterSeconds} seconds.`,
        { 'retry-after': String(state.retryAfterSeconds) },
      );
    }
    const account = accountOf(entry.grant.account);
    if (path.startsWith('/subscriptions'))
      return subscriptionRoute(account, entry.grant, method, path, body, res);
    await route(account, method, path, url, body, req, res);
  });

  /** POSTs one notification to an address, as Graph does (it expects 202), and records the answer. */
  function deliver(address: string, item: Record<string, unknown>) {
    void fetch(address, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: [item] }),
    })
      .then((res) => res.status)
      .catch(() => 0)
      .then((status) =>
        notifications.push({
          subscriptionId: String(item.subscriptionId),
          status,
          ...(item.lifecycleEvent ? { lifecycleEvent: String(item.lifecycleEvent) } : {}),
        }),
      );
  }

  /** A change to an account's messages or events, sent to each live subscription that covers it. */
  function notify(email: string, resource: 'messages' | 'events', id: string, changeType: string) {
    for (const sub of subscriptions.values()) {
      if (sub.account !== email || sub.resource.toLowerCase() !== `me/${resource}`) continue;
      if (!sub.changeType.split(',').includes(changeType)) continue;
      if (Date.parse(sub.expirationDateTime) < Date.now()) continue;
      const userId = email.replace(/\W/g, '');
      deliver(sub.notificationUrl, {
        subscriptionId: sub.id,
        subscriptionExpirationDateTime: sub.expirationDateTime,
        changeType,
        resource: `Users/${userId}/${resource === 'messages' ? 'Messages' : 'Events'}/${id}`,
        resourceData: {
          '@odata.type': resource === 'messages' ? '#Microsoft.Graph.Message' : '#Microsoft.Graph.Event',
          '@odata.id': `Users/${userId}/${resource === 'messages' ? 'Messages' : 'Events'}/${id}`,
          id,
        },
        clientState: sub.clientState ?? null,
        tenantId: TENANT,
      });
    }
  }

  /** The subscription routes: create (after validating its addresses), renew, delete. */
  async function subscriptionRoute(
    account: Account,
    grant: Grant,
    method: string,
    path: string,
    body: string,
    res: ServerResponse,
  ) {
    const id = /^\/subscriptions\/([^/]+)$/.exec(path)?.[1];
    const ends = (value: unknown) => {
      const at = Date.parse(String(value));
      return Number.isFinite(at) && at > Date.now() && at <= Date.now() + MAX_SUBSCRIPTION_MINUTES * 60_000;
    };
    const expired = () =>
      graphError(
        res,
        400,
        'InvalidRequest',
        `Subscription expiration can only be ${MAX_SUBSCRIPTION_MINUTES} minutes in the future.`,
      );
    if (method === 'POST' && path === '/subscriptions') {
      const asked = JSON.parse(body || '{}') as Partial<Subscription>;
      const resource = asked.resource?.toLowerCase();
      const needs =
        resource === 'me/messages'
          ? ['Mail.Read', 'Mail.ReadWrite']
          : ['Calendars.Read', 'Calendars.ReadWrite'];
      if (resource !== 'me/messages' && resource !== 'me/events')
        return graphError(res, 400, 'InvalidRequest', `Resource '${asked.resource}' is not supported.`);
      if (!needs.some((s) => grant.scopes.includes(s)))
        return graphError(
          res,
          403,
          'ExtensionError',
          'Operation: Create; Exception: [Status Code: Forbidden]',
        );
      if (!asked.changeType || !asked.notificationUrl)
        return graphError(res, 400, 'InvalidRequest', 'changeType and notificationUrl are required.');
      if (!ends(asked.expirationDateTime)) return expired();
      if (
        !reachableAddress(asked.notificationUrl) ||
        (asked.lifecycleNotificationUrl && !reachableAddress(asked.lifecycleNotificationUrl))
      )
        return graphError(res, 400, 'InvalidRequest', 'The notification URL must use https.');
      for (const address of new Set([asked.notificationUrl, asked.lifecycleNotificationUrl].filter(Boolean)))
        if (!(await validates(address!)))
          return graphError(
            res,
            400,
            'ValidationError',
            'Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.',
          );
      const sub: Subscription = {
        id: crypto.randomUUID(),
        account: account.email,
        resource: asked.resource!,
        changeType: asked.changeType,
        notificationUrl: asked.notificationUrl,
        lifecycleNotificationUrl: asked.lifecycleNotificationUrl,
        clientState: asked.clientState,
        expirationDateTime: new Date(Date.parse(asked.expirationDateTime!)).toISOString(),
      };
      subscriptions.set(sub.id, sub);
      const { account: _account, ...answer } = sub;
      return json(res, 201, { '@odata.context': `${base}/v1.0/$metadata#subscriptions/$entity`, ...answer });
    }
    const sub = id ? subscriptions.get(id) : undefined;
    if (!sub || sub.account !== account.email)
      return graphError(res, 404, 'ResourceNotFound', `The object was not found.`);
    if (method === 'PATCH') {
      const asked = JSON.parse(body || '{}') as { expirationDateTime?: string };
      if (!ends(asked.expirationDateTime)) return expired();
      sub.expirationDateTime = new Date(Date.parse(asked.expirationDateTime!)).toISOString();
      const { account: _account, ...answer } = sub;
      return json(res, 200, answer);
    }
    if (method === 'DELETE') {
      subscriptions.delete(sub.id);
      res.writeHead(204);
      return res.end();
    }
    return graphError(res, 405, 'MethodNotAllowed', 'The method is not allowed.');
  }

  const base = server.base;
  const page = <T>(items: T[], url: URL, top: number) => {
    const skip = Number(url.searchParams.get('$skip') ?? 0);
    const next = new URL(url.href.replace('http://double', base));
    next.searchParams.set('$skip', String(skip + top));
    return {
      value: items.slice(skip, skip + top),
      ...(skip + top < items.length ? { '@odata.nextLink': next.href } : {}),
    };
  };

  async function route(
    account: Account,
    method: string,
    path: string,
    url: URL,
    body: string,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    const select = url.searchParams.get('$select');
    const top = Math.min(1000, Number(url.searchParams.get('$top') ?? 10));
    const notFound = () =>
      graphError(res, 404, 'ErrorItemNotFound', 'The specified object was not found in the store.');

    if (method === 'GET' && path === '/me')
      return json(res, 200, {
        id: account.email.replace(/\W/g, ''),
        displayName: account.email.split('@')[0],
        mail: account.email,
        userPrincipalName: account.email,
      });

    const folderPath = /^\/me\/mailFolders\/([^/]+)(\/messages(\/delta)?)?$/.exec(path);
    if (method === 'GET' && folderPath) {
      const folder = folderOf(folderPath[1]!);
      if (!folder) return notFound();
      if (!folderPath[2])
        return json(res, 200, { id: FOLDER_IDS[folder], displayName: FOLDER_NAMES[folder] });
      if (folderPath[3]) return delta(account, folder, url, req, res);
      const filter = dateFilter(url.searchParams.get('$filter'));
      if (filter === 'bad') return badFilter(res);
      const items = [...account.messages.values()]
        .filter((m) => m.parentFolderId === FOLDER_IDS[folder] && (!filter || filter(m)))
        .sort((a, b) => Date.parse(b.receivedDateTime) - Date.parse(a.receivedDateTime))
        .map((m) => selected(m, select));
      return json(res, 200, page(items, url, top));
    }

    if (method === 'GET' && path === '/me/messages') {
      const conversation = /^conversationId eq '((?:[^']|'')*)'$/.exec(url.searchParams.get('$filter') ?? '');
      if (!conversation) return badFilter(res);
      const id = conversation[1]!.replaceAll("''", "'");
      const items = [...account.messages.values()]
        .filter((m) => m.conversationId === id)
        .map((m) => selected(m, select));
      return json(res, 200, page(items, url, top));
    }

    const messagePath = /^\/me\/messages\/([^/]+)(\/\$value)?$/.exec(path);
    if (messagePath) {
      const message = account.messages.get(decodeURIComponent(messagePath[1]!));
      if (!message) return notFound();
      if (method === 'GET' && messagePath[2]) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(message.raw);
      }
      if (method === 'GET') return json(res, 200, selected(message, select));
      if (method === 'PATCH') {
        const patch = JSON.parse(body) as { isRead?: boolean };
        if (typeof patch.isRead === 'boolean') message.isRead = patch.isRead;
        return json(res, 200, selected(message, null));
      }
    }

    // Sending and drafts in MIME: the body is the message, base64, as text/plain.
    const mime = () =>
      (req.headers['content-type'] ?? '').startsWith('text/plain')
        ? Buffer.from(body.trim(), 'base64')
        : null;
    if (method === 'POST' && path === '/me/sendMail') {
      const raw = mime();
      if (!raw) return graphError(res, 400, 'ErrorMimeContentInvalid', 'This stand-in takes MIME only.');
      state.sent.push(raw);
      // Sent Items keeps it, in the conversation it answers.
      await account.addRaw(raw, { folder: 'sentitems', date: new Date() });
      res.writeHead(202);
      return res.end();
    }
    if (method === 'POST' && path === '/me/messages') {
      const raw = mime();
      if (!raw) return graphError(res, 400, 'ErrorMimeContentInvalid', 'This stand-in takes MIME only.');
      state.drafts.push(raw);
      const draft = await account.addRaw(raw, { folder: 'drafts', isDraft: true });
      return json(res, 201, selected(draft, null));
    }

    if (method === 'GET' && path === '/me/calendarView') {
      const from = Date.parse(url.searchParams.get('startDateTime') ?? '');
      const to = Date.parse(url.searchParams.get('endDateTime') ?? '');
      if (!Number.isFinite(from) || !Number.isFinite(to))
        return graphError(res, 400, 'ErrorInvalidParameter', 'startDateTime and endDateTime are required.');
      const at = (e: Record<string, unknown>, key: 'start' | 'end') =>
        Date.parse(`${(e[key] as { dateTime: string }).dateTime.slice(0, 23)}Z`);
      const items = [...account.events.values()]
        .filter((e) => at(e, 'end') > from && at(e, 'start') < to)
        .sort((a, b) => at(a, 'start') - at(b, 'start'));
      return json(res, 200, page(items, url, top));
    }
    if (method === 'POST' && path === '/me/events') {
      const event = JSON.parse(body) as Record<string, unknown>;
      // The event keeps its zone; with `Prefer: outlook.timezone="UTC"` its times are answered in UTC.
      const inUtc = /outlook\.timezone="UTC"/.test(String(req.headers.prefer ?? ''));
      const utc = (t: unknown) => {
        const { dateTime, timeZone } = t as { dateTime: string; timeZone: string };
        return { dateTime: graphTime(instantIn(dateTime, timeZone)), timeZone: 'UTC' };
      };
      const stored = account.addEvent({
        ...event,
        isOrganizer: true,
        responseStatus: { response: 'organizer', time: '0001-01-01T00:00:00Z' },
        organizer: { emailAddress: { name: account.email, address: account.email } },
      });
      return json(res, 201, inUtc ? { ...stored, start: utc(stored.start), end: utc(stored.end) } : stored);
    }
    const eventPath = /^\/me\/events\/([^/]+)(?:\/(accept|tentativelyAccept|decline))?$/.exec(path);
    if (eventPath) {
      const eventId = decodeURIComponent(eventPath[1]!);
      const event = account.events.get(eventId);
      if (!event) return notFound();
      if (method === 'GET' && !eventPath[2]) return json(res, 200, event);
      if (method === 'POST' && eventPath[2]) {
        const action = eventPath[2];
        // Exchange's answer to an organiser answering their own meeting.
        if (event.isOrganizer)
          return graphError(
            res,
            400,
            `ErrorCalendarIsOrganizerFor${action === 'tentativelyAccept' ? 'Tentative' : action === 'accept' ? 'Accept' : 'Decline'}`,
            "You can't respond to this meeting because you're the meeting organizer.",
          );
        const { sendResponse = true } = JSON.parse(body || '{}') as { sendResponse?: boolean };
        state.responses.push({ eventId, action, sendResponse });
        const response = {
          accept: 'accepted',
          tentativelyAccept: 'tentativelyAccepted',
          decline: 'declined',
        }[action]!;
        const time = new Date().toISOString();
        event.responseStatus = { response, time };
        for (const a of (event.attendees as Array<Recipient & { status: unknown }>) ?? [])
          if (a.emailAddress.address === account.email) a.status = { response, time };
        res.writeHead(202);
        return res.end();
      }
    }
    graphError(res, 400, 'BadRequest', `Resource not found for the segment '${path.split('/').at(-1)}'.`);
  }

  /**
   * A delta round of a folder's messages: the first answers what is there (within its `$filter`),
   * page by page; its deltaLink then answers what changed since, as Graph's message delta does.
   */
  function delta(account: Account, folder: Folder, url: URL, req: IncomingMessage, res: ServerResponse) {
    const size = Number(/odata\.maxpagesize=(\d+)/.exec(String(req.headers.prefer ?? ''))?.[1] ?? 10);
    const token = url.searchParams.get('$deltatoken') ?? url.searchParams.get('$skiptoken');
    let state: { since: number; until: number; filter: string | null; select: string | null; offset: number };
    if (token) {
      state = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
      // As the delta reference documents it: 410 Gone, and where a new first round starts.
      if (state.since >= 0 && state.since < account.oldestDelta)
        return graphError(res, 410, 'syncStateNotFound', 'The sync state generation is not found.', {
          location: `${base}/v1.0/me/mailFolders/${folder}/messages/delta`,
        });
      // A deltaLink followed: this round covers the changes up to now.
      if (state.since >= 0 && state.offset === 0) state.until = account.seq;
    } else {
      state = {
        since: -1,
        until: account.seq,
        filter: url.searchParams.get('$filter'),
        select: url.searchParams.get('$select'),
        offset: 0,
      };
    }
    const filter = dateFilter(state.filter);
    if (filter === 'bad') return badFilter(res);
    const kept = (m: GraphMessage | undefined) =>
      m && m.parentFolderId === FOLDER_IDS[folder] && (!filter || filter(m));
    let items: Array<Record<string, unknown>>;
    if (state.since < 0) {
      items = [...account.messages.values()].filter(kept).map((m) => selected(m, state.select));
    } else {
      // The last change of each message since the token, as the folder sees it now.
      const last = new Map<string, Change>();
      for (const c of account.changes)
        if (c.seq > state.since && c.seq <= state.until && c.folder === folder) last.set(c.id, c);
      items = [...last.values()].flatMap((c) => {
        const m = account.messages.get(c.id);
        if (c.removed || !m || m.parentFolderId !== FOLDER_IDS[folder])
          return [{ id: c.id, '@removed': { reason: 'deleted' } }];
        return kept(m) ? [selected(m, state.select)] : [];
      });
    }
    const link = (next: object) =>
      `${base}/v1.0/me/mailFolders/${folder}/messages/delta?${
        'offset' in next && (next as { offset: number }).offset > 0 ? '$skiptoken' : '$deltatoken'
      }=${Buffer.from(JSON.stringify(next)).toString('base64url')}`;
    const pageItems = items.slice(state.offset, state.offset + size);
    if (state.offset + size < items.length)
      return json(res, 200, {
        value: pageItems,
        '@odata.nextLink': link({ ...state, offset: state.offset + size }),
      });
    // The round is over: the next starts after what this one covered.
    const nextRound = { since: state.until, until: 0, filter: state.filter, select: state.select, offset: 0 };
    return json(res, 200, { value: pageItems, '@odata.deltaLink': link(nextRound) });
  }

  return {
    state,
    /** The settings that point the product here. */
    env: {
      MICROSOFT_CLIENT_ID: CLIENT.id,
      MICROSOFT_CLIENT_SECRET: CLIENT.secret,
      MICROSOFT_AUTH_URL: `${base}/common/oauth2/v2.0`,
      MICROSOFT_GRAPH_URL: `${base}/v1.0`,
    },
    /** The Microsoft account `email` (created empty on first use): its mailbox and calendar. */
    account: accountOf,
    /** The change-notification subscriptions Graph keeps, and each notification's delivery. */
    subscriptions,
    notifications,
    /**
     * Graph removes an account's subscriptions (an outage, a password change) and says so to each
     * lifecycle address: `subscriptionRemoved`.
     */
    removeSubscriptions(email: string) {
      for (const sub of [...subscriptions.values()].filter((s) => s.account === email)) {
        subscriptions.delete(sub.id);
        if (sub.lifecycleNotificationUrl)
          deliver(sub.lifecycleNotificationUrl, {
            subscriptionId: sub.id,
            subscriptionExpirationDateTime: sub.expirationDateTime,
            tenantId: TENANT,
            clientState: sub.clientState ?? null,
            lifecycleEvent: 'subscriptionRemoved',
          });
      }
    },
    /** Withdraws every consent, as the user would at myaccount.microsoft.com › Apps. */
    revokeAll() {
      for (const grant of refreshTokens.values()) grant.revoked = true;
    },
    /** Expires every access token now, so the next call must refresh. */
    expireAccessTokens() {
      for (const entry of accessTokens.values()) entry.expiresAt = 0;
    },
    stop: server.stop,
  };
}
