import type { ParsedMessage } from './message';
import type { ThreadMessage } from './needs-reply';
import type { MailSource } from './source';

/** Reads one thread (see `threadReader`); `parsed` holds the messages read whole so far. */
export type ThreadReader = ((threadId: string, full?: boolean) => Promise<ThreadMessage[] | null>) & {
  parsed: Map<string, ParsedMessage>;
};

/**
 * Reads threads, each at most once per sync: the reply triage and the follow-ups look at the same
 * threads. Headers only by default; `full` when the messages' text will be read too (one call
 * instead of one per message, where the source allows), and then the parsed messages are kept
 * (`parsed`). Null for a thread gone since.
 */
export function threadReader(source: MailSource): ThreadReader {
  const seen = new Map<string, Promise<ThreadMessage[] | null>>();
  const parsed = new Map<string, ParsedMessage>();
  const fetchThread = async (threadId: string, full: boolean) => {
    const thread = await source.thread(threadId, full);
    if (!thread) return null;
    for (const m of thread.parsed) parsed.set(m.messageId, m);
    return thread.messages;
  };
  const read = (threadId: string, full = false) => {
    let thread = seen.get(threadId);
    if (!thread) seen.set(threadId, (thread = fetchThread(threadId, full)));
    return thread;
  };
  return Object.assign(read, { parsed });
}
