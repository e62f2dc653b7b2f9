import { createBlindIndex } from '@haven/kit/blind-index';
import type { Db } from '@haven/kit/db';
import { knownContactKeys, rememberContacts } from '../../db/contacts.repository';
import type { ParsedMessage } from './message';

/**
 * Whom the user wrote to: the To and Cc of their own messages that a sync read (the threads they
 * wrote in are read whole). An address in a mail the user received proves nothing about its owner;
 * one the user wrote to is someone they know. Addresses are kept only as a keyed blind index scoped
 * to the user, so the table answers "is this someone they wrote to?" and nothing else.
 */
export function createContacts(deps: { db: Db; secret: string }) {
  const index = createBlindIndex(deps.secret, 'mail-contacts');
  const keyOf = (userId: number, address: string) => index(`${userId}:${address.trim().toLowerCase()}`);

  return {
    /** Records the recipients of the account's own messages among `messages`. */
    async rememberWrittenTo(
      mailbox: { integrationId: number; userId: number; account: string },
      messages: Iterable<ParsedMessage>,
    ): Promise<void> {
      if (!mailbox.account) return;
      const latest = new Map<string, Date>();
      for (const m of messages) {
        if (m.fromAddress !== mailbox.account) continue;
        for (const to of m.recipients) {
          if (to === mailbox.account) continue;
          const seen = latest.get(to);
          if (!seen || seen < m.receivedAt) latest.set(to, m.receivedAt);
        }
      }
      await rememberContacts(
        deps.db,
        [...latest].map(([address, at]) => ({
          integrationId: mailbox.integrationId,
          userId: mailbox.userId,
          addressKey: keyOf(mailbox.userId, address),
          lastWrittenAt: at,
        })),
      );
    },

    /** Those of `addresses` the user has written to, from any of their mail accounts. */
    async known(userId: number, addresses: string[]): Promise<string[]> {
      const byKey = new Map(addresses.map((a) => [keyOf(userId, a), a]));
      const found = await knownContactKeys(deps.db, userId, [...byKey.keys()]);
      return [...byKey].filter(([key]) => found.has(key)).map(([, address]) => address);
    },
  };
}
export type Contacts = ReturnType<typeof createContacts>;
