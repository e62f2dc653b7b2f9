/**
 * Gmail's API as a MailSource (see source.ts): messages and threads through `users.messages` and
 * `users.threads`, the cursor is Gmail's history id and changes come from `users.history`.
 */
import type { gmail_v1 } from 'googleapis';
import addressparser from 'nodemailer/lib/addressparser';
import pLimit from 'p-limit';
import type { ParseMail } from './mail-parser';
import type { ParsedMessage } from './message';
import { THREAD_HEADERS, type ThreadMessage } from './needs-reply';
import { CursorExpired, type MailChanges, type MailSource, type MailWindow, type MessageRef } from './source';

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

export function gmailSource(gmail: gmail_v1.Gmail, parse: ParseMail): MailSource {
  const limit = pLimit(PARALLEL);

  async function listed(labelId: string, window: MailWindow, pageSize: number): Promise<MessageRef[]> {
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

  return {
    async profile() {
      const { data } = await limit(() => gmail.users.getProfile({ userId: 'me' }));
      return { address: data.emailAddress?.toLowerCase() ?? null, cursor: data.historyId ?? '' };
    },

    inbox: (window) => listed('INBOX', window, 100),

    async sentThreads(window) {
      // Ids only: one call per 500.
      return new Set((await listed('SENT', window, 500)).flatMap((m) => m.threadId ?? []));
    },

    async changes(cursor) {
      const added = new Map<string, MessageRef>();
      const removed = new Set<string>();
      const touchedThreads = new Set<string>();
      const add = (message: gmail_v1.Schema$Message) => {
        added.set(message.id!, { id: message.id!, threadId: message.threadId ?? undefined });
        if (message.threadId) touchedThreads.add(message.threadId);
      };
      let pageToken: string | undefined;
      let historyId = cursor;
      do {
        let page;
        try {
          page = await limit(() =>
            gmail.users.history.list({ userId: 'me', startHistoryId: cursor, pageToken }),
          );
        } catch (err) {
          // Gmail keeps about a week of history: an older id is answered 404.
          if (notFound(err)) throw new CursorExpired(`Gmail no longer knows history id ${cursor}`);
          throw err;
        }
        for (const h of page.data.history ?? []) {
          for (const { message } of h.messagesAdded ?? []) {
            if (!message?.id) continue;
            if (message.threadId) touchedThreads.add(message.threadId);
            if (message.labelIds?.includes('INBOX')) add(message);
          }
          for (const { message, labelIds } of h.labelsAdded ?? [])
            if (message?.id && labelIds?.includes('INBOX')) add(message);
          for (const { message, labelIds } of h.labelsRemoved ?? [])
            if (message?.id && labelIds?.includes('INBOX')) removed.add(message.id);
          for (const { message } of h.messagesDeleted ?? []) if (message?.id) removed.add(message.id);
        }
        historyId = page.data.historyId ?? historyId;
        pageToken = page.data.nextPageToken ?? undefined;
      } while (pageToken);
      for (const id of removed) added.delete(id);
      return {
        added: [...added.values()],
        removed: [...removed],
        touchedThreads,
        cursor: historyId,
      } satisfies MailChanges;
    },

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

    thread: (threadId, full) =>
      limit(async () => {
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
      }),

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
