import type { Db } from '@haven/kit/db';
import { clearNeedsReply, markNeedsReply } from '../../db/mail-messages.repository';
import type { MailAccount } from './mail-account';
import type { ParsedMessage } from './message';
import { isReplyCandidate, threadAwaitsUser } from './needs-reply';
import type { ReplyTriage } from './reply-triage';
import type { ThreadReader } from './thread-reader';

/** The messages among `messages` that may ask something of the account's user, by id. */
export const replyCandidates = (messages: ParsedMessage[], account: string): Map<string, ParsedMessage> =>
  new Map(messages.filter((m) => isReplyCandidate(m, account)).map((m) => [m.messageId, m]));

/** Recomputes `needsReply` for the threads of the candidates (see `createReplyMarks`). */
export type ReplyMarks = (
  read: ThreadReader,
  mailbox: MailAccount,
  threadIds: Set<string>,
  candidates: Map<string, ParsedMessage>,
) => Promise<void>;

/** The candidates that are the last message of a thread awaiting the user. */
async function awaitingUser(
  read: ThreadReader,
  account: string,
  threadIds: Set<string>,
  candidates: Map<string, ParsedMessage>,
): Promise<ParsedMessage[]> {
  const awaiting = new Set<string>();
  // The reader limits the parallel calls itself.
  await Promise.all(
    [...threadIds].map(async (threadId) => {
      const messages = await read(threadId);
      if (!messages) return;
      const last = threadAwaitsUser(messages, account);
      if (last && candidates.has(last)) awaiting.add(last);
    }),
  );
  return [...awaiting].map((id) => candidates.get(id)!);
}

/**
 * Recomputes `needsReply` for the threads of `candidates`: a thread awaits the user when its last
 * message is a person's that asks something of the user (see `isReplyCandidate`), and then only
 * that message is marked. With a model, the candidates are asked about once more (a question or a
 * request, or just a thank-you?).
 */
export function createReplyMarks({ db, triage }: { db: Db; triage: ReplyTriage }): ReplyMarks {
  return async (read, mailbox, threadIds, candidates) => {
    if (threadIds.size === 0) return;
    const confirmed = await triage(mailbox, await awaitingUser(read, mailbox.account, threadIds, candidates));
    await clearNeedsReply(db, mailbox.integrationId, [...threadIds]);
    await markNeedsReply(db, mailbox.integrationId, confirmed);
  };
}
