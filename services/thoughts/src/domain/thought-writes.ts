import { audioDataParts } from '@haven/contracts/common';
import type { CreateThoughtBody, Thought, UpdateThoughtBody } from '@haven/contracts/thoughts';
import { captureTags } from '@haven/kit/hashtags';
import { notFound } from '@haven/kit/errors';
import {
  deleteOwned,
  findByClientKey,
  findOwned,
  insertThought,
  updateOwned,
  type ThoughtRow,
} from '../db/thoughts.repository';
import { localDateOf } from './dates';
import { audioContext, contentContext, presentThought, withoutVoiceMarker, withVoiceMarker } from './present';
import { thoughtKey } from './portability';
import { rowColumns } from './search/entry';
import { thoughtChanged } from './thought-changed';
import type { ThoughtsDeps } from './thoughts-deps';

const THOUGHT_NOT_FOUND = 'Thought not found';

/** The writing side of the thoughts domain: each write and its `thought.changed` in one unit of work. */
export function createThoughtWrites(
  deps: Pick<ThoughtsDeps, 'uow' | 'cipher' | 'tags' | 'keys' | 'search' | 'llm'>,
) {
  const { uow, cipher, tags, keys, search, llm } = deps;
  const present = (row: ThoughtRow) =>
    presentThought({ ...row, date: row.date.toISOString(), hasAudio: row.audioEnc !== null }, cipher, tags);

  /** The index of a thought after an edit of its text (stored form) or tags; undefined when neither. */
  function reindexed(existing: ThoughtRow, text: string | undefined, newTags: string[] | undefined) {
    if (text === undefined && newTags === undefined) return undefined;
    const content = withoutVoiceMarker(
      text ?? cipher.decrypt(existing.contentEnc, contentContext(existing.userId)),
    );
    return search.entry(existing.userId, content, newTags ?? tags.open(existing));
  }

  return {
    /**
     * Saves a thought on the user's own calendar day, encrypted, with its `thought.changed` event in
     * the same transaction. Its `#tags` join the tags it was sent with. A voice entry sent as audio
     * only is queued for transcription.
     */
    async create(userId: number, body: CreateThoughtBody): Promise<Thought> {
      const instant = body.clientDate ? new Date(body.clientDate) : new Date();
      const audio = body.audioData ? audioDataParts(body.audioData) : undefined;
      const text = body.isVoice ? withVoiceMarker(body.content) : body.content;
      const tagList = captureTags(body.content, body.tags);
      const entry = search.entry(userId, withoutVoiceMarker(text), tagList);
      const row = await uow.run(async (tx, emit) => {
        // A retried save (same client key) answers the thought the first one made.
        if (body.clientKey) {
          const earlier = await findByClientKey(tx, userId, body.clientKey);
          if (earlier) return earlier;
        }
        const created = await insertThought(tx, {
          clientKey: body.clientKey ?? null,
          dedupeKey: thoughtKey(keys, userId, { content: body.content, date: instant }),
          userId,
          contentEnc: cipher.encrypt(text, contentContext(userId)),
          audioEnc: audio
            ? cipher.encryptBytes(Buffer.from(audio.base64, 'base64'), audioContext(userId))
            : null,
          audioMime: audio ? (audio.mimeType ?? 'audio/webm') : null,
          isVoice: body.isVoice,
          category: body.category,
          ...tags.seal(userId, tagList),
          ...rowColumns(entry),
          date: instant,
          localDate: localDateOf(instant, body.timezoneOffset),
          timezoneOffset: body.timezoneOffset ?? null,
        });
        // Saved meanwhile by a concurrent retry with the same key: that one is the thought.
        if (!created) return (await findByClientKey(tx, userId, body.clientKey!))!;
        await search.record(tx, userId, [{ id: created.id, before: null, after: entry }]);
        await thoughtChanged(emit, created, 'created');
        if (audio && !body.content && llm) {
          await emit('thought.transcribe', { userId, thoughtId: created.id });
        }
        return created;
      });
      return present(row);
    },

    /** Applies the changed fields of the user's own thought; another user's id is a 404. */
    async update(userId: number, id: number, body: UpdateThoughtBody): Promise<Thought> {
      const row = await uow.run(async (tx, emit) => {
        const existing = await findOwned(tx, userId, id);
        if (!existing) throw notFound(THOUGHT_NOT_FOUND);
        let contentEnc: string | undefined;
        let dedupeKey: string | undefined;
        let text: string | undefined;
        if (body.content !== undefined) {
          text = existing.isVoice ? withVoiceMarker(withoutVoiceMarker(body.content)) : body.content;
          contentEnc = cipher.encrypt(text, contentContext(userId));
          dedupeKey = thoughtKey(keys, userId, { content: text, date: existing.date });
        }
        const entry = reindexed(existing, text, body.tags);
        const updated = await updateOwned(tx, userId, id, {
          contentEnc,
          dedupeKey,
          category: body.category,
          ...(body.tags !== undefined ? tags.seal(userId, body.tags) : {}),
          ...(entry && rowColumns(entry)),
        });
        if (!updated) throw notFound(THOUGHT_NOT_FOUND);
        if (entry) await search.record(tx, userId, [{ id, before: existing, after: entry }]);
        await thoughtChanged(emit, updated, 'updated');
        return updated;
      });
      return present(row);
    },

    async remove(userId: number, id: number): Promise<{ success: true }> {
      await uow.run(async (tx, emit) => {
        // Recorded first: the counts of its grams are read back from the row that goes with it.
        const existing = await findOwned(tx, userId, id);
        if (!existing) throw notFound(THOUGHT_NOT_FOUND);
        await search.record(tx, userId, [{ id, before: existing, after: null }]);
        const removed = await deleteOwned(tx, userId, id);
        if (!removed) throw notFound(THOUGHT_NOT_FOUND);
        await thoughtChanged(emit, removed, 'deleted');
      });
      return { success: true };
    },
  };
}
