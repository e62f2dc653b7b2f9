import type { gmail_v1 } from 'googleapis';
import addressparser from 'nodemailer/lib/addressparser';
import type pLimit from 'p-limit';
import type { ParseMail } from './mail-parser';
import type { ParsedMessage } from './message';
import { THREAD_HEADERS, type ThreadMessage } from './needs-reply';

/** Reads one thread (see `threadReader`); `parsed` holds the messages read whole so far. */
export type ThreadReader = ((threadId: string, full?: boolean) => Promise<ThreadMessage[] | null>) & {
  parsed: Map<string, ParsedMessage>;
};

/**
 * Reads threads, each at most once per sync: the reply triage and the follow-ups look at the same
 * threads. Metadata (`THREAD_HEADERS`) by default; `full` when the messages' text will be read too
 * (one call instead of one per message), and then the parsed messages are kept (`parsed`). Null
 * for a thread gone since. `limit` bounds the calls in flight, shared with the sync's other calls.
 */
export function threadReader(
  gmail: gmail_v1.Gmail,
  limit: ReturnType<typeof pLimit>,
  parse: ParseMail,
): ThreadReader {
  const seen = new Map<string, Promise<ThreadMessage[] | null>>();
  const parsed = new Map<string, ParsedMessage>();
  const fetchThread = (threadId: string, full: boolean) =>
    limit(async () => {
      let thread;
      try {
        thread = await gmail.users.threads.get({
          userId: 'me',
          id: threadId,
          ...(full ? { format: 'full' } : { format: 'metadata', metadataHeaders: THREAD_HEADERS }),
        });
      } catch (err) {
        if ((err as { status?: number }).status === 404) return null;
        throw err;
      }
      const messages = thread.data.messages ?? [];
      if (full) for (const m of messages) parsed.set(m.id ?? '', await parse(m));
      return messages.map((m): ThreadMessage => {
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
      });
    });
  const read = (threadId: string, full = false) => {
    let thread = seen.get(threadId);
    if (!thread) seen.set(threadId, (thread = fetchThread(threadId, full)));
    return thread;
  };
  return Object.assign(read, { parsed });
}
