import type { FollowUps } from './follow-ups';
import type { MailAccount } from './mail-account';
import { fetchMessages } from './message-reading';
import type { ThreadMessage } from './needs-reply';
import type { MailSource } from './source';
import type { ThreadReader } from './thread-reader';

/** Brings the follow-ups of these threads up to date (see `followUpTracking`). */
export type TrackFollowUps = (
  source: MailSource,
  read: ThreadReader,
  mailbox: MailAccount,
  threadIds: Set<string>,
  full?: boolean,
) => Promise<void>;

/**
 * Brings 'Waiting for an answer' up to date for these threads (see `FollowUps.update`); a
 * message's text already read with its thread is not fetched again.
 */
export function followUpTracking(followUps: FollowUps): TrackFollowUps {
  return async (source, read, mailbox, threadIds, full = false) => {
    const threads = await Promise.all(
      [...threadIds].map(async (id): Promise<[string, ThreadMessage[] | null]> => [id, await read(id, full)]),
    );
    await followUps.update(mailbox, threads, async (ids) => {
      const missing = ids.filter((id) => !read.parsed.has(id));
      const fetched = await fetchMessages(source, missing);
      return [...ids.flatMap((id) => read.parsed.get(id) ?? []), ...fetched];
    });
  };
}
