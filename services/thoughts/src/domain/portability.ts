import type { ImportResults, ImportedThought, PageQuery, ThoughtPage } from '@haven/contracts/portability';
import { newEventId } from '@haven/kit/outbox';
import { keysetPage, markNew, type DuplicateKeys } from '@haven/kit/portability';
import {
  exportRows,
  insertImported,
  setDedupeKey,
  unkeyedOnDays,
  usedClientKeys,
  usedDedupeKeys,
} from '../db/portability.repository';
import { audioContext, contentContext, presentThought, withoutVoiceMarker, withVoiceMarker } from './present';
import { rowColumns } from './search/entry';
import type { ThoughtsDeps } from './thoughts-deps';

/**
 * A thought's duplicate key: the same owner, text, instant and title (an imported note's; null for
 * thoughts written in the app) are the same thought.
 */
export function thoughtKey(
  keys: DuplicateKeys,
  userId: number,
  t: { content: string; date: string | Date; title?: string | null },
) {
  return keys(userId, [
    new Date(t.date).toISOString(),
    t.title ?? null,
    withoutVoiceMarker(t.content).trim(),
  ]);
}

/**
 * The thoughts part of an export (pages by id, with audio) and of an import (batches, de-duplicated
 * by key against what the user has, each batch announced to insights once per day it touched).
 */
export function createPortability({
  db,
  uow,
  cipher,
  tags,
  keys,
  search,
}: Pick<ThoughtsDeps, 'db' | 'uow' | 'cipher' | 'tags' | 'keys' | 'search'>) {
  /** Keys the user's thoughts of these days saved before keys existed (once per thought, ever). */
  async function keyOlderThoughts(userId: number, days: string[]) {
    for (const row of await unkeyedOnDays(db, userId, days)) {
      const content = cipher.decrypt(row.contentEnc, contentContext(userId));
      await setDedupeKey(db, userId, row.id, thoughtKey(keys, userId, { content, date: row.date }));
    }
  }

  return {
    async exportPage(userId: number, { after, limit }: PageQuery): Promise<ThoughtPage> {
      const page = keysetPage(await exportRows(db, userId, after, limit), limit);
      return {
        thoughts: page.items.map((row) => ({
          ...presentThought(row, cipher, tags),
          audio: row.audioEnc
            ? {
                mimeType: row.audioMime ?? 'audio/webm',
                data: cipher.decryptBytes(row.audioEnc, audioContext(userId)).toString('base64'),
              }
            : null,
        })),
        next: page.next,
      };
    },

    /**
     * Writes the batch's new thoughts. An item whose import key was written before (the same batch
     * tried again after a crash) counts as imported; one the user already has is a duplicate.
     */
    async importBatch(userId: number, items: ImportedThought[]): Promise<ImportResults> {
      if (items.length === 0) return { results: [] };
      await keyOlderThoughts(userId, [...new Set(items.map((t) => t.localDate))]);
      const clientKeys = items.map((t) => `import-${t.key}`);
      const again = await usedClientKeys(db, userId, clientKeys);
      const dedupe = items.map((t) => thoughtKey(keys, userId, t));
      const pending = items.map((_, i) => i).filter((i) => !again.has(clientKeys[i]!));
      const existing = await usedDedupeKeys(
        db,
        userId,
        pending.map((i) => dedupe[i]!),
      );
      const isNew = markNew(pending, (i) => dedupe[i]!, existing);
      const write = pending.filter((_, n) => isNew[n]);
      if (write.length > 0)
        await uow.run(async (tx, emit) => {
          // Each thought's index by its client key (a row a retried batch wrote meanwhile is skipped).
          const entries = new Map(
            write.map((i) => {
              const item = items[i]!;
              const text = withoutVoiceMarker(item.isVoice ? withVoiceMarker(item.content) : item.content);
              return [clientKeys[i]!, search.entry(userId, text, item.tags)];
            }),
          );
          const rows = await insertImported(
            tx,
            write.map((i) => {
              const item = items[i]!;
              return {
                userId,
                clientKey: clientKeys[i]!,
                dedupeKey: dedupe[i]!,
                contentEnc: cipher.encrypt(
                  item.isVoice ? withVoiceMarker(item.content) : item.content,
                  contentContext(userId),
                ),
                audioEnc: item.audio
                  ? cipher.encryptBytes(Buffer.from(item.audio.data, 'base64'), audioContext(userId))
                  : null,
                audioMime: item.audio?.mimeType ?? null,
                isVoice: item.isVoice,
                format: item.format,
                category: item.category,
                ...tags.seal(userId, item.tags),
                ...rowColumns(entries.get(clientKeys[i]!)!),
                date: new Date(item.date),
                localDate: item.localDate,
                timezoneOffset: item.timezoneOffset ?? null,
              };
            }),
          );
          await search.record(
            tx,
            userId,
            rows.map((row) => ({ id: row.id, before: null, after: entries.get(row.clientKey!)! })),
          );
          // Insights go stale by day: one event per day the batch touched is enough.
          const byDay = new Map(rows.map((row) => [row.localDate, row]));
          for (const row of byDay.values())
            await emit('thought.changed', {
              eventId: newEventId(),
              userId,
              thoughtId: row.id,
              localDate: row.localDate,
              change: 'created',
              changedAt: row.updatedAt.toISOString(),
            });
        });
      const duplicates = new Set(pending.filter((_, n) => !isNew[n]));
      return { results: items.map((_, i) => (duplicates.has(i) ? 'duplicate' : 'imported')) };
    },
  };
}
export type Portability = ReturnType<typeof createPortability>;
