/**
 * A Microsoft 365 or Outlook.com mailbox through Microsoft Graph, as a MailSource (see source.ts).
 * Threads are Graph's conversations; messages are read whole as their MIME (`$value`) and parsed in
 * the mail sandbox like an IMAP message; the cursor holds one delta link for the inbox and one for
 * the sent items (delta query is per folder); sending and drafts take the MIME Haven composed, so a
 * reply keeps its In-Reply-To and References.
 */
import type { Message, MailFolder, User } from '@microsoft/microsoft-graph-types';
import { ResponseType } from '@microsoft/microsoft-graph-client';
import pLimit from 'p-limit';
import { graphLink, graphNotFound, type GraphClient } from '../microsoft';
import type { ParseRawMail } from './mail-parser';
import type { ParsedMessage } from './message';
import { THREAD_HEADERS, type ThreadMessage } from './needs-reply';
import { CursorExpired, type MailChanges, type MailSource, type MailWindow, type MessageRef } from './source';

/** Parallel requests within one account's sync (Graph allows 4 at once per mailbox). */
const PARALLEL = 4;
/** Messages per page of a listing or a delta round. */
const PAGE = 100;

/** What a listing reads of each message. */
const REF_FIELDS = 'id,conversationId';
/** What a thread reads of each message: where it is, who wrote, and its threading headers. */
const THREAD_FIELDS =
  'id,conversationId,receivedDateTime,parentFolderId,isDraft,from,toRecipients,ccRecipients,subject,internetMessageId,internetMessageHeaders';

type Folder = 'inbox' | 'sentitems' | 'drafts';
/** A delta round's item: a message, or one that left the folder. */
type DeltaItem = Message & { '@removed'?: { reason?: string } };
interface Page<T> {
  value?: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/** The cursor: where each folder's next delta round starts. */
interface Cursor {
  v: 1;
  inbox: string;
  sent: string;
}

function readCursor(cursor: string): Cursor {
  try {
    const parsed = JSON.parse(cursor) as Partial<Cursor>;
    if (parsed.v === 1 && typeof parsed.inbox === 'string' && typeof parsed.sent === 'string')
      return parsed as Cursor;
  } catch {
    // Another provider's cursor (the account was Google's once): read anew.
  }
  throw new CursorExpired('not a Graph cursor');
}

/** A delta link Graph no longer knows answers 410 Gone (the sync state was dropped). */
const gone = (err: unknown) => (err as { statusCode?: number }).statusCode === 410;

const addressLine = (r: Message['from']) => {
  const { name, address } = r?.emailAddress ?? {};
  if (!address) return '';
  return name && name !== address ? `"${name.replace(/["\\]/g, '')}" <${address}>` : address;
};
const addressList = (list: Message['toRecipients']) =>
  (list ?? [])
    .map((r) => addressLine(r))
    .filter(Boolean)
    .join(', ');

/** A message's threading headers: its internet headers when Graph has them (received mail), else its fields. */
function headersOf(m: Message): Record<string, string> {
  const internet = new Map<string, string>();
  for (const h of m.internetMessageHeaders ?? [])
    if (h.name && !internet.has(h.name.toLowerCase())) internet.set(h.name.toLowerCase(), h.value ?? '');
  const fromFields: Record<string, string> = {
    from: addressLine(m.from),
    to: addressList(m.toRecipients),
    cc: addressList(m.ccRecipients),
    subject: m.subject ?? '',
    'message-id': m.internetMessageId ?? '',
  };
  return Object.fromEntries(
    THREAD_HEADERS.map((h) => {
      const name = h.toLowerCase();
      return [name, internet.get(name) ?? fromFields[name] ?? ''];
    }),
  );
}

export function graphMailSource(client: GraphClient, parse: ParseRawMail): MailSource {
  const limit = pLimit(PARALLEL);
  const call = <T>(request: () => Promise<T>) => limit(request);
  const folderIds = new Map<Folder, Promise<string>>();

  /** A well-known folder's id (what a message's parentFolderId names). */
  function folderId(folder: Folder): Promise<string> {
    let id = folderIds.get(folder);
    if (!id) {
      id = call(() => client.api(`/me/mailFolders/${folder}`).select('id').get() as Promise<MailFolder>).then(
        (f) => f.id ?? '',
      );
      folderIds.set(folder, id);
    }
    return id;
  }

  /** Where a message is, in the labels the sync reads (source.ts). */
  async function labelsOf(m: Message): Promise<string[]> {
    const [inbox, sent, drafts] = await Promise.all([
      folderId('inbox'),
      folderId('sentitems'),
      folderId('drafts'),
    ]);
    const labels: string[] = [];
    if (m.parentFolderId === inbox) labels.push('INBOX');
    if (m.parentFolderId === sent) labels.push('SENT');
    if (m.isDraft || m.parentFolderId === drafts) labels.push('DRAFT');
    return labels;
  }

  /** A folder's messages received within the window, newest first, at most `max`. */
  async function listed(folder: Folder, window: MailWindow): Promise<MessageRef[]> {
    const since = new Date(Date.now() - window.days * 86_400_000).toISOString();
    const found: MessageRef[] = [];
    let page = await call(
      () =>
        client
          .api(`/me/mailFolders/${folder}/messages`)
          .select(REF_FIELDS)
          .filter(`receivedDateTime ge ${since}`)
          .orderby('receivedDateTime desc')
          .top(Math.min(PAGE, window.max))
          .get() as Promise<Page<Message>>,
    );
    for (;;) {
      for (const m of page.value ?? [])
        if (m.id && found.length < window.max)
          found.push({ id: m.id, threadId: m.conversationId ?? undefined });
      const next = page['@odata.nextLink'];
      if (!next || found.length >= window.max) return found;
      page = await call(() => client.api(graphLink(next)).get() as Promise<Page<Message>>);
    }
  }

  /** Follows a delta round to its end: every item, and the link the next round starts from. */
  async function deltaRound(start: string): Promise<{ items: DeltaItem[]; next: string }> {
    const items: DeltaItem[] = [];
    let link = start;
    for (;;) {
      const page = await call(
        () =>
          client.api(graphLink(link)).header('Prefer', `odata.maxpagesize=${PAGE}`).get() as Promise<
            Page<DeltaItem>
          >,
      );
      items.push(...(page.value ?? []));
      if (page['@odata.deltaLink']) return { items, next: page['@odata.deltaLink'] };
      if (!page['@odata.nextLink']) throw new Error('Graph: a delta page without a next or delta link');
      link = page['@odata.nextLink'];
    }
  }

  /** A delta link for a folder from now on: a first round of what arrives from this moment. */
  async function deltaFromNow(folder: Folder): Promise<string> {
    const now = new Date(Date.now() - 60_000).toISOString();
    const filter = encodeURIComponent(`receivedDateTime ge ${now}`);
    const first = `/me/mailFolders/${folder}/messages/delta?$select=${REF_FIELDS}&$filter=${filter}`;
    return (await deltaRound(first)).next;
  }

  /** One message read whole: its place and date from Graph, its content from its MIME. */
  async function message(id: string): Promise<ParsedMessage | null> {
    const path = `/me/messages/${encodeURIComponent(id)}`;
    try {
      const [meta, raw] = await Promise.all([
        call(
          () =>
            client
              .api(path)
              .select('id,conversationId,receivedDateTime,parentFolderId,isDraft')
              .get() as Promise<Message>,
        ),
        call(
          () =>
            client.api(`${path}/$value`).responseType(ResponseType.ARRAYBUFFER).get() as Promise<ArrayBuffer>,
        ),
      ]);
      const parsed = await parse(new Uint8Array(raw), {
        messageId: id,
        receivedAt: meta.receivedDateTime ? new Date(meta.receivedDateTime) : new Date(),
        labelIds: await labelsOf(meta),
      });
      // Graph's conversation is the thread, whatever the headers say.
      return { ...parsed, threadId: meta.conversationId ?? parsed.threadId };
    } catch (err) {
      // Deleted between the listing and the fetch.
      if (graphNotFound(err)) return null;
      throw err;
    }
  }

  async function thread(threadId: string, full: boolean) {
    const found: Message[] = [];
    let page = await call(
      () =>
        client
          .api('/me/messages')
          .filter(`conversationId eq '${threadId.replace(/'/g, "''")}'`)
          .select(THREAD_FIELDS)
          .top(PAGE)
          .get() as Promise<Page<Message>>,
    );
    for (;;) {
      found.push(...(page.value ?? []).filter((m) => m.id));
      const next = page['@odata.nextLink'];
      if (!next) break;
      page = await call(() => client.api(graphLink(next)).get() as Promise<Page<Message>>);
    }
    if (found.length === 0) return null;
    const at = (m: Message) => Date.parse(m.receivedDateTime ?? '') || 0;
    found.sort((a, b) => at(a) - at(b));
    const messages: ThreadMessage[] = await Promise.all(
      found.map(async (m) => ({
        id: m.id!,
        internalDate: at(m),
        labelIds: await labelsOf(m),
        fromAddress: m.from?.emailAddress?.address?.toLowerCase() ?? '',
        headers: headersOf(m),
      })),
    );
    const parsed: ParsedMessage[] = [];
    if (full)
      for (const m of found) {
        const read = await message(m.id!);
        if (read) parsed.push(read);
      }
    return { messages, parsed };
  }

  return {
    async profile() {
      const me = (await call(() => client.api('/me').select('mail,userPrincipalName').get())) as User;
      const address = (me.mail ?? me.userPrincipalName ?? '').toLowerCase() || null;
      const [inbox, sent] = await Promise.all([deltaFromNow('inbox'), deltaFromNow('sentitems')]);
      return { address, cursor: JSON.stringify({ v: 1, inbox, sent } satisfies Cursor) };
    },

    inbox: (window) => listed('inbox', window),

    async sentThreads(window) {
      return new Set((await listed('sentitems', window)).flatMap((m) => m.threadId ?? []));
    },

    async changes(cursor) {
      const links = readCursor(cursor);
      let inbox, sent;
      try {
        [inbox, sent] = await Promise.all([deltaRound(links.inbox), deltaRound(links.sent)]);
      } catch (err) {
        if (gone(err)) throw new CursorExpired('Graph no longer knows the delta link');
        throw err;
      }
      const added = new Map<string, MessageRef>();
      const removed = new Set<string>();
      const touchedThreads = new Set<string>();
      for (const item of inbox.items) {
        if (!item.id) continue;
        if (item['@removed']) {
          removed.add(item.id);
          continue;
        }
        // New in the inbox, or changed there (read, flagged): read again either way.
        added.set(item.id, { id: item.id, threadId: item.conversationId ?? undefined });
        if (item.conversationId) touchedThreads.add(item.conversationId);
      }
      // What the user sent (from any app) may answer a thread.
      for (const item of sent.items)
        if (!item['@removed'] && item.conversationId) touchedThreads.add(item.conversationId);
      for (const id of removed) added.delete(id);
      return {
        added: [...added.values()],
        removed: [...removed],
        touchedThreads,
        cursor: JSON.stringify({ v: 1, inbox: inbox.next, sent: sent.next } satisfies Cursor),
      } satisfies MailChanges;
    },

    message,
    thread,

    async send(raw) {
      // Graph sends a MIME message given as base64 text, and keeps it in the sent items.
      await client.api('/me/sendMail').header('Content-Type', 'text/plain').post(raw.toString('base64'));
    },

    async saveDraft(raw) {
      await client.api('/me/messages').header('Content-Type', 'text/plain').post(raw.toString('base64'));
    },
  };
}
