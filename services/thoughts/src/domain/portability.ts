import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { ImportCounts, ImportedThought, PageQuery, ThoughtPage } from '@haven/contracts/portability';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { newEventId } from '@haven/kit/outbox';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { listColumns } from '../db/thoughts.repository';
import { thoughts } from '../db/schema';
import { audioContext, contentContext, presentThought, withoutVoiceMarker, withVoiceMarker } from './present';
import type { TagSealer } from './tags';

/** A thought's identity for de-duplication: the same text at the same instant. */
const identity = (content: string, date: string) => `${new Date(date).toISOString()}\u0000${content.trim()}`;

/**
 * The thoughts part of an export (pages by id, with audio) and of an import (batches, de-duplicated
 * against what the user has, each imported thought announced to insights like a new one).
 */
export function createPortability({
  db,
  uow,
  cipher,
  tags,
}: {
  db: Db;
  uow: UnitOfWork;
  cipher: FieldCipher;
  tags: TagSealer;
}) {
  return {
    async exportPage(userId: number, { after, limit }: PageQuery): Promise<ThoughtPage> {
      const rows = await db
        .select({ ...listColumns, audioEnc: thoughts.audioEnc, audioMime: thoughts.audioMime })
        .from(thoughts)
        .where(and(eq(thoughts.userId, userId), gt(thoughts.id, after)))
        .orderBy(asc(thoughts.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      return {
        thoughts: page.map((row) => ({
          ...presentThought(row, cipher, tags),
          audio: row.audioEnc
            ? {
                mimeType: row.audioMime ?? 'audio/webm',
                data: cipher.decryptBytes(row.audioEnc, audioContext(userId)).toString('base64'),
              }
            : null,
        })),
        next: rows.length > limit ? page.at(-1)!.id : null,
      };
    },

    async importBatch(userId: number, items: ImportedThought[]): Promise<ImportCounts> {
      if (items.length === 0) return { imported: 0, skipped: 0 };
      const days = [...new Set(items.map((t) => t.localDate))];
      const existing = await db
        .select({ contentEnc: thoughts.contentEnc, date: listColumns.date })
        .from(thoughts)
        .where(and(eq(thoughts.userId, userId), inArray(thoughts.localDate, days)));
      const seen = new Set(
        existing.map((row) =>
          identity(withoutVoiceMarker(cipher.decrypt(row.contentEnc, contentContext(userId))), row.date),
        ),
      );
      const fresh = items.filter((item) => {
        const key = identity(item.content, item.date);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      if (fresh.length > 0)
        await uow.run(async (tx, emit) => {
          const rows = await tx
            .insert(thoughts)
            .values(
              fresh.map((item) => ({
                userId,
                contentEnc: cipher.encrypt(
                  item.isVoice ? withVoiceMarker(item.content) : item.content,
                  contentContext(userId),
                ),
                audioEnc: item.audio
                  ? cipher.encryptBytes(Buffer.from(item.audio.data, 'base64'), audioContext(userId))
                  : null,
                audioMime: item.audio?.mimeType ?? null,
                isVoice: item.isVoice,
                category: item.category,
                ...tags.seal(userId, item.tags),
                date: new Date(item.date),
                localDate: item.localDate,
              })),
            )
            .returning({ id: thoughts.id, localDate: thoughts.localDate, updatedAt: thoughts.updatedAt });
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
      const imported = fresh.length;
      return { imported, skipped: items.length - imported };
    },
  };
}
export type Portability = ReturnType<typeof createPortability>;
