import type {
  ConversationPage,
  ImportedConversationItem,
  ImportResults,
  PageQuery,
} from '@haven/contracts/portability';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { keysetPage, markNew, type DuplicateKeys } from '@haven/kit/portability';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import {
  conversationsAfter,
  insertImportedConversation,
  messagesOf,
  startedAt,
  usedImportKeys,
} from '../db/portability.repository';
import { contentContext, titleContext } from './assistant';
import { sealMetadata } from './message-metadata';

/**
 * The assistant's part of an export (conversations by id, each with its messages) and of an import
 * (conversations written as they were: an imported question is not answered again).
 */
export function createPortability({
  db,
  uow,
  cipher,
  keys,
}: {
  db: Db;
  uow: UnitOfWork;
  cipher: FieldCipher;
  keys: DuplicateKeys;
}) {
  const conversationKey = (userId: number, c: { createdAt: string | Date; title: string }) =>
    keys(userId, [new Date(c.createdAt).toISOString(), c.title]);

  return {
    async exportPage(userId: number, { after, limit }: PageQuery): Promise<ConversationPage> {
      const page = keysetPage(await conversationsAfter(db, userId, after, limit), limit);
      const all = await messagesOf(
        db,
        userId,
        page.items.map((c) => c.id),
      );
      return {
        conversations: page.items.map((row) => ({
          id: row.id,
          title: cipher.decrypt(row.titleEnc, titleContext(userId)),
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
          messages: all
            .filter((m) => m.conversationId === row.id)
            .map((m) => ({
              type: m.type === 'assistant' ? ('assistant' as const) : ('user' as const),
              content: cipher.decrypt(m.contentEnc, contentContext(userId)),
              createdAt: m.createdAt.toISOString(),
            })),
        })),
        next: page.next,
      };
    },

    /**
     * Writes the batch's new conversations. One with the same title and start as one the user has
     * is a duplicate (only conversations started at the same instants are decrypted to tell); one
     * whose import key was written by an earlier try of the batch counts as imported.
     */
    async importBatch(userId: number, items: ImportedConversationItem[]): Promise<ImportResults> {
      const importKeys = items.map((c) => `import-${c.key}`);
      const again = await usedImportKeys(db, userId, importKeys);
      const candidates = await startedAt(
        db,
        userId,
        items.map((c) => new Date(c.createdAt)),
      );
      const existing = new Set(
        candidates.map((row) =>
          conversationKey(userId, {
            createdAt: row.createdAt,
            title: cipher.decrypt(row.titleEnc, titleContext(userId)),
          }),
        ),
      );
      const pending = items.map((_, i) => i).filter((i) => !again.has(importKeys[i]!));
      const isNew = markNew(pending, (i) => conversationKey(userId, items[i]!), existing);
      const duplicates = new Set(pending.filter((_, n) => !isNew[n]));
      await uow.run(async (tx) => {
        for (const i of pending.filter((_, n) => isNew[n])) {
          const item = items[i]!;
          await insertImportedConversation(
            tx,
            {
              userId,
              importKey: importKeys[i]!,
              titleEnc: cipher.encrypt(item.title, titleContext(userId)),
              createdAt: new Date(item.createdAt),
              updatedAt: new Date(item.messages.at(-1)?.createdAt ?? item.createdAt),
            },
            item.messages.map((m) => ({
              userId,
              type: m.type,
              contentEnc: cipher.encrypt(m.content, contentContext(userId)),
              createdAt: new Date(m.createdAt),
              ...sealMetadata(cipher, userId, { imported: true }),
            })),
          );
        }
      });
      return { results: items.map((_, i) => (duplicates.has(i) ? 'duplicate' : 'imported')) };
    },
  };
}
export type Portability = ReturnType<typeof createPortability>;
