import type { ParsedMessage } from './message';
import type { MailSource, MessageRef } from './source';
import type { ThreadReader } from './thread-reader';

/** These messages read whole (the source bounds its calls in flight); those gone since left out. */
export const fetchMessages = (source: MailSource, ids: string[]): Promise<ParsedMessage[]> =>
  Promise.all(ids.map((id) => source.message(id))).then((all) =>
    all.filter((m): m is ParsedMessage => m !== null),
  );

/**
 * These messages, each read once: those of `threads` with the whole thread (one call for all its
 * messages, kept by the reader), the others alone. A message gone since is left out.
 */
export async function readMessages(
  source: MailSource,
  read: ThreadReader,
  listed: ReadonlyArray<MessageRef>,
  threads: ReadonlySet<string>,
): Promise<ParsedMessage[]> {
  await Promise.all([...threads].map((id) => read(id, true)));
  const alone = await fetchMessages(
    source,
    listed.filter((m) => !read.parsed.has(m.id)).map((m) => m.id),
  );
  const byId = new Map(alone.map((m) => [m.messageId, m]));
  return listed.flatMap((m) => read.parsed.get(m.id) ?? byId.get(m.id) ?? []);
}
