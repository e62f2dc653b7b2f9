/**
 * The Graph mail source's cursor and changes: one delta link for the inbox and one for the sent
 * items (delta query is per folder).
 */
import type { Message } from '@microsoft/microsoft-graph-types';
import { graphLink } from '../microsoft';
import { PAGE, REF_FIELDS, type Folder, type GraphMail, type Page } from './graph-mail-api';
import { CursorExpired, type MailChanges, type MessageRef } from './source';

/** A delta round's item: a message, or one that left the folder. */
type DeltaItem = Message & { '@removed'?: { reason?: string } };

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

/** What the delta rounds of the inbox and the sent items say changed. */
function changesOf(inbox: DeltaItem[], sent: DeltaItem[]): Omit<MailChanges, 'cursor'> {
  const added = new Map<string, MessageRef>();
  const removed = new Set<string>();
  const touchedThreads = new Set<string>();
  for (const item of inbox) {
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
  for (const item of sent)
    if (!item['@removed'] && item.conversationId) touchedThreads.add(item.conversationId);
  for (const id of removed) added.delete(id);
  return { added: [...added.values()], removed: [...removed], touchedThreads };
}

/** The cursor of this moment, and the changes since a cursor, by Graph's delta query. */
export function graphDelta({ client, call }: GraphMail) {
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

  return {
    /** A cursor from this moment on, for the inbox and the sent items. */
    async cursorNow(): Promise<string> {
      const [inbox, sent] = await Promise.all([deltaFromNow('inbox'), deltaFromNow('sentitems')]);
      return JSON.stringify({ v: 1, inbox, sent } satisfies Cursor);
    },

    async changes(cursor: string): Promise<MailChanges> {
      const links = readCursor(cursor);
      let inbox, sent;
      try {
        [inbox, sent] = await Promise.all([deltaRound(links.inbox), deltaRound(links.sent)]);
      } catch (err) {
        if (gone(err)) throw new CursorExpired('Graph no longer knows the delta link');
        throw err;
      }
      return {
        ...changesOf(inbox.items, sent.items),
        cursor: JSON.stringify({ v: 1, inbox: inbox.next, sent: sent.next } satisfies Cursor),
      };
    },
  };
}
