/**
 * Gmail's API as a MailSource (see source.ts): messages and threads through `users.messages` and
 * `users.threads`, the cursor is Gmail's history id and changes come from `users.history`.
 */
import type { gmail_v1 } from 'googleapis';
import addressparser from 'nodemailer/lib/addressparser';
import pLimit, { type LimitFunction } from 'p-limit';
import type { ParseMail } from './mail-parser';
import type { ParsedMessage } from './message';
import { THREAD_HEADERS, type ThreadMessage } from './needs-reply';
import {
  CursorExpired,
  type MailChanges,
  type MailSource,
  type MailThread,
  type MailWindow,
  type MessageRef,
} from './source';

/** Parallel requests within one account's sync (Gmail allows far more). */
const PARALLEL = 8;

const notFound = (err: unknown) => (err as { status?: number }).status === 404;

/** A message's headers as the thread's metadata gives them. */
function threadMessage(m: gmail_v1.Schema$Message): ThreadMessage {
  const headers = Object.fromEntries(
    (m.payload?.headers ?? []).map((h) => [h.name?.toLowerCase() ?? '', h.value ?? '']),
  );
  const [sender] = headers.from ? addressparser(headers.from, { flatten: true }) : [];
  return {
    id: m.id ?? '',
    internalDate: Number(m.internalDate ?? 0),
    labelIds: m.labelIds ?? [],
    fromAddress: sender?.address?.toLowerCase() ?? '',
    headers,
  };
}

/** A label's messages within the window, newest first, at most `window.max`, `pageSize` a call. */
async function listed(
  gmail: gmail_v1.Gmail,
  limit: LimitFunction,
  labelId: string,
  window: MailWindow,
  pageSize: number,
): Promise<MessageRef[]> {
  const found: MessageRef[] = [];
  let pageToken: string | undefined;
  do {
    const page = await limit(() =>
      gmail.users.messages.list({
        userId: 'me',
        labelIds: [labelId],
        q: `newer_than:${window.days}d`,
        maxResults: Math.min(pageSize, window.max - found.length),
        pageToken,
      }),
    );
    for (const m of page.data.messages ?? [])
      if (m.id) found.push({ id: m.id, threadId: m.threadId ?? undefined });
    pageToken = page.data.nextPageToken ?? undefined;
  } while (pageToken && found.length < window.max);
  return found;
}

/** What a walk through the history gathers, as `MailChanges` keeps it before the cursor. */
type Gathered = Omit<MailChanges, 'added' | 'removed' | 'cursor'> & {
  added: Map<string, MessageRef>;
  removed: Set<string>;
};

/** A message that came into the inbox. */
function addToInbox(changes: Gathered, message: gmail_v1.Schema$Message): void {
  changes.added.set(message.id!, { id: message.id!, threadId: message.threadId ?? undefined });
  if (message.threadId) changes.touchedThreads.add(message.threadId);
}

/** Messages added to any folder: their threads were touched, and those in the inbox came. */
function gatherAdded(changes: Gathered, added: gmail_v1.Schema$HistoryMessageAdded[]): void {
  for (const { message } of added) {
    if (!message?.id) continue;
    if (message.threadId) changes.touchedThreads.add(message.threadId);
    if (message.labelIds?.includes('INBOX')) addToInbox(changes, message);
  }
}

/** Messages that got the inbox's label, lost it, or were deleted. */
function gatherMoves(changes: Gathered, h: gmail_v1.Schema$History): void {
  for (const { message, labelIds } of h.labelsAdded ?? [])
    if (message?.id && labelIds?.includes('INBOX')) addToInbox(changes, message);
  for (const { message, labelIds } of h.labelsRemoved ?? [])
    if (message?.id && labelIds?.includes('INBOX')) changes.removed.add(message.id);
  for (const { message } of h.messagesDeleted ?? []) if (message?.id) changes.removed.add(message.id);
}

/** One page of the history since `cursor`; CursorExpired when Gmail no longer keeps it. */
async function historyPage(
  gmail: gmail_v1.Gmail,
  limit: LimitFunction,
  cursor: string,
  pageToken: string | undefined,
) {
  try {
    return await limit(() => gmail.users.history.list({ userId: 'me', startHistoryId: cursor, pageToken }));
  } catch (err) {
    // Gmail keeps about a week of history: an older id is answered 404.
    if (notFound(err)) throw new CursorExpired(`Gmail no longer knows history id ${cursor}`);
    throw err;
  }
}

/** What changed since the history id `cursor`, page after page of `users.history`. */
async function changesSince(
  gmail: gmail_v1.Gmail,
  limit: LimitFunction,
  cursor: string,
): Promise<MailChanges> {
  const changes: Gathered = { added: new Map(), removed: new Set(), touchedThreads: new Set() };
  let pageToken: string | undefined;
  let historyId = cursor;
  do {
    const page = await historyPage(gmail, limit, cursor, pageToken);
    for (const h of page.data.history ?? []) {
      gatherAdded(changes, h.messagesAdded ?? []);
      gatherMoves(changes, h);
    }
    historyId = page.data.historyId ?? historyId;
    pageToken = page.data.nextPageToken ?? undefined;
  } while (pageToken);
  for (const id of changes.removed) changes.added.delete(id);
  return {
    added: [...changes.added.values()],
    removed: [...changes.removed],
    touchedThreads: changes.touchedThreads,
    cursor: historyId,
  };
}

/** A thread by `users.threads`: its headers, and with `full` its messages parsed; null when gone. */
async function readThread(
  gmail: gmail_v1.Gmail,
  parse: ParseMail,
  threadId: string,
  full: boolean,
): Promise<MailThread | null> {
  let thread;
  try {
    thread = await gmail.users.threads.get({
      userId: 'me',
      id: threadId,
      ...(full ? { format: 'full' } : { format: 'metadata', metadataHeaders: THREAD_HEADERS }),
    });
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
  const messages = thread.data.messages ?? [];
  const parsed: ParsedMessage[] = [];
  if (full) for (const m of messages) parsed.push(await parse(m));
  return { messages: messages.map(threadMessage), parsed };
}

export function gmailSource(gmail: gmail_v1.Gmail, parse: ParseMail): MailSource {
  const limit = pLimit(PARALLEL);

  return {
    async profile() {
      const { data } = await limit(() => gmail.users.getProfile({ userId: 'me' }));
      return { address: data.emailAddress?.toLowerCase() ?? null, cursor: data.historyId ?? '' };
    },

    inbox: (window) => listed(gmail, limit, 'INBOX', window, 100),

    async sentThreads(window) {
      // Ids only: one call per 500.
      return new Set((await listed(gmail, limit, 'SENT', window, 500)).flatMap((m) => m.threadId ?? []));
    },

    changes: (cursor) => changesSince(gmail, limit, cursor),

    message: (id) =>
      limit(async () => {
        try {
          return await parse((await gmail.users.messages.get({ userId: 'me', id, format: 'full' })).data);
        } catch (err) {
          // Deleted between the listing and the fetch.
          if (notFound(err)) return null;
          throw err;
        }
      }),

    thread: (threadId, full) => limit(() => readThread(gmail, parse, threadId, full)),

    async send(message, threadId) {
      await gmail.users.messages.send({
        userId: 'me',
        requestBody: { raw: message.toString('base64url'), threadId },
      });
    },

    async saveDraft(message, threadId) {
      await gmail.users.drafts.create({
        userId: 'me',
        requestBody: { message: { raw: message.toString('base64url'), threadId } },
      });
    },
  };
}
