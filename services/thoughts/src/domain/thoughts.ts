import { audioDataParts } from '@haven/contracts/common';
import type {
  CreateThoughtBody,
  RangeQuery,
  TagCount,
  Thought,
  UpdateThoughtBody,
} from '@haven/contracts/thoughts';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { captureTags } from '@haven/kit/hashtags';
import { notFound } from '@haven/kit/errors';
import type { Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import { newEventId } from '@haven/kit/outbox';
import { UnrecoverableError } from '@haven/kit/queue';
import type { DuplicateKeys } from '@haven/kit/portability';
import type { Emit, UnitOfWork } from '@haven/kit/unit-of-work';
import {
  deleteOwned,
  findAudio,
  findOwned,
  insertThought,
  listAllPage,
  type AllCursor,
  listTagColumns,
  findByClientKey,
  listByDay,
  listByIds,
  listRange,
  rangeStats,
  updateOwned,
  type ThoughtListRow,
  type ThoughtRow,
} from '../db/thoughts.repository';
import { classifyEntry } from './classify';
import { localDateOf } from './dates';
import { audioContext, contentContext, presentThought, withoutVoiceMarker, withVoiceMarker } from './present';
import { thoughtKey } from './portability';
import { rowColumns } from './search/entry';
import type { SearchWriter } from './search/writer';
import { normaliseTag, type TagSealer } from './tags';

/** What the thoughts domain is built from, once, by the composition root. */
export interface ThoughtsDeps {
  db: Db;
  uow: UnitOfWork;
  cipher: FieldCipher;
  /** Encrypts tags and keeps their blind index (built from the same data key as `cipher`). */
  tags: TagSealer;
  /** Duplicate keys, kept on every save so an import finds what the user has without decrypting. */
  keys: DuplicateKeys;
  /** Keeps each thought's search index (and the user's totals) with every write. */
  search: SearchWriter;
  /** The configured model, or null: voice entries sent as audio only then keep their audio alone. */
  llm: Llm | null;
  log: Logger;
}

const THOUGHT_NOT_FOUND = 'Thought not found';
/** Thoughts read and sent at a time by GET /api/thoughts/all. */
const ALL_BATCH = 500;

/** Tells the insights service (and anyone listening) which day of whose thoughts changed. */
function thoughtChanged(emit: Emit, row: ThoughtRow, change: 'created' | 'updated' | 'deleted') {
  return emit('thought.changed', {
    eventId: newEventId(),
    userId: row.userId,
    thoughtId: row.id,
    localDate: row.localDate,
    change,
    changedAt: (change === 'deleted' ? new Date() : row.updatedAt).toISOString(),
  });
}

/**
 * The thoughts domain: every flow takes the acting user first and touches only that user's rows,
 * so another user's id is simply not found. Writes and their `thought.changed` events go through
 * one unit of work.
 */
export function createThoughts({ db, uow, cipher, tags, keys, search, llm, log }: ThoughtsDeps) {
  const present = (row: ThoughtRow) =>
    presentThought({ ...row, date: row.date.toISOString(), hasAudio: row.audioEnc !== null }, cipher, tags);
  const presentAll = (rows: ThoughtListRow[]) => rows.map((r) => presentThought(r, cipher, tags));

  /** Every thought of the user, newest first, a batch at a time (GET /api/thoughts/all streams them). */
  async function* all(userId: number): AsyncGenerator<Thought[]> {
    let after: AllCursor | null = null;
    for (;;) {
      const rows = await listAllPage(db, userId, after, ALL_BATCH);
      if (rows.length > 0) yield presentAll(rows);
      if (rows.length < ALL_BATCH) return;
      const last = rows[rows.length - 1]!;
      after = { id: last.id, at: last.at };
    }
  }

  /** The index of a thought after an edit of its text (stored form) or tags; undefined when neither. */
  function reindexed(existing: ThoughtRow, text: string | undefined, newTags: string[] | undefined) {
    if (text === undefined && newTags === undefined) return undefined;
    const content = withoutVoiceMarker(
      text ?? cipher.decrypt(existing.contentEnc, contentContext(existing.userId)),
    );
    return search.entry(existing.userId, content, newTags ?? tags.open(existing));
  }

  return {
    ofDay: async (userId: number, date: string): Promise<Thought[]> =>
      presentAll(await listByDay(db, userId, date)),

    inRange: async (userId: number, range: RangeQuery): Promise<Thought[]> =>
      presentAll(await listRange(db, userId, range.start, range.end)),

    /** The user's thoughts among `ids`, in the order asked; ids that are not theirs are simply absent. */
    async byIds(userId: number, ids: number[]): Promise<Thought[]> {
      const byId = new Map((await listByIds(db, userId, ids)).map((r) => [r.id, r]));
      return ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [presentThought(row, cipher, tags)] : [];
      });
    },

    all,

    /** Count and latest change of the user's thoughts in a range (how insights know theirs are current). */
    stats: (userId: number, range: RangeQuery) => rangeStats(db, userId, range.start, range.end),

    /**
     * The user's tags with how many thoughts carry each (spellings that differ only in letter case
     * count as one, under the latest thought's spelling), most used first. It reads and decrypts
     * only the tag columns of tagged thoughts: one small decryption per tagged thought.
     */
    async tagCounts(userId: number): Promise<TagCount[]> {
      const counts = new Map<string, TagCount>();
      for (const row of await listTagColumns(db, userId)) {
        for (const tag of tags.open(row)) {
          const key = normaliseTag(tag);
          const known = counts.get(key);
          if (known) known.count++;
          else counts.set(key, { tag, count: 1 });
        }
      }
      return [...counts.values()].sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
    },

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

    /**
     * A voice thought's recording, decrypted, with its type. Another user's thought, or one without
     * audio, is not found. The route streams it; it never leaves in a JSON answer.
     */
    async audio(userId: number, id: number): Promise<{ bytes: Buffer; mimeType: string }> {
      const row = await findAudio(db, userId, id);
      if (!row?.audioEnc) throw notFound('This thought has no recording');
      return {
        bytes: cipher.decryptBytes(row.audioEnc, audioContext(userId)),
        mimeType: row.audioMime ?? 'audio/webm',
      };
    },

    /** 'chat' or 'thought': the model when configured, the spec's keyword rule without it or on failure. */
    classify: (text: string) => classifyEntry(text, llm, log),

    /**
     * Fills in the text of a voice thought that arrived as audio only. Idempotent: a thought that is
     * gone, has no audio, or already has text is left alone; so is every thought when no model is
     * configured (the entry keeps its audio, and its empty text says so).
     */
    async transcribe(userId: number, thoughtId: number): Promise<void> {
      if (!llm) {
        log.info({ thoughtId }, 'no speech-to-text configured; voice thought keeps its audio only');
        return;
      }
      const thought = await findOwned(db, userId, thoughtId);
      if (!thought || !thought.audioEnc) return;
      if (withoutVoiceMarker(cipher.decrypt(thought.contentEnc, contentContext(userId))).length > 0) return;
      const audio = cipher.decryptBytes(thought.audioEnc, audioContext(userId));
      const mimeType = thought.audioMime ?? 'audio/webm';
      const text = await llm.transcribe(audio, {
        filename: `thought-${thoughtId}.${mimeType.split('/')[1] ?? 'webm'}`,
        mimeType,
      });
      if (!text) throw new UnrecoverableError('The transcription came back empty');
      await uow.run(async (tx, emit) => {
        const before = await findOwned(tx, userId, thoughtId);
        if (!before) return;
        const entry = search.entry(userId, withoutVoiceMarker(withVoiceMarker(text)), tags.open(before));
        const updated = await updateOwned(tx, userId, thoughtId, {
          contentEnc: cipher.encrypt(withVoiceMarker(text), contentContext(userId)),
          dedupeKey: thoughtKey(keys, userId, { content: text, date: thought.date }),
          ...rowColumns(entry),
        });
        if (!updated) return;
        await search.record(tx, userId, [{ id: thoughtId, before, after: entry }]);
        await thoughtChanged(emit, updated, 'updated');
      });
      log.info({ thoughtId }, 'voice thought transcribed');
    },
  };
}
export type Thoughts = ReturnType<typeof createThoughts>;
