import { audioDataParts } from '@haven/contracts/common';
import type { CreateThoughtBody, RangeQuery, Thought, UpdateThoughtBody } from '@haven/contracts/thoughts';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db, Tx } from '@haven/kit/db';
import { notFound } from '@haven/kit/errors';
import { newEventId, writeOutbox } from '@haven/kit/outbox';
import {
  deleteOwned,
  findOwned,
  insertThought,
  listAll,
  listByDay,
  listByIds,
  listRange,
  updateOwned,
  type ThoughtRow,
} from '../db/thoughts.repository';
import { outbox } from '../db/schema';
import { localDateOf } from './dates';
import { audioContext, contentContext, presentThought, withoutVoiceMarker, withVoiceMarker } from './present';

/** What the thought flows need, wired once from the service's dependencies. */
export interface ThoughtsContext {
  db: Db;
  cipher: FieldCipher;
  /** Whether a speech-to-text endpoint is configured for voice entries sent without text. */
  canTranscribe: boolean;
  /** Publish pending events now (after a commit). */
  kickOutbox(): void;
}

const THOUGHT_NOT_FOUND = 'Thought not found';

const present = (ctx: ThoughtsContext, row: ThoughtRow) =>
  presentThought({ ...row, date: row.date.toISOString(), hasAudio: row.audioEnc !== null }, ctx.cipher);

/** Tells the insights service (and anyone listening) which day of whose thoughts changed. */
export function thoughtChanged(tx: Tx, row: ThoughtRow, change: 'created' | 'updated' | 'deleted') {
  return writeOutbox(tx, outbox, 'thought.changed', {
    eventId: newEventId(),
    userId: row.userId,
    thoughtId: row.id,
    localDate: row.localDate,
    change,
  });
}

export async function thoughtsOfDay(ctx: ThoughtsContext, userId: number, date: string): Promise<Thought[]> {
  return (await listByDay(ctx.db, userId, date)).map((r) => presentThought(r, ctx.cipher));
}

export async function thoughtsInRange(
  ctx: ThoughtsContext,
  userId: number,
  range: RangeQuery,
): Promise<Thought[]> {
  return (await listRange(ctx.db, userId, range.start, range.end)).map((r) => presentThought(r, ctx.cipher));
}

/** The user's thoughts among `ids`, in the order asked; ids that are not theirs are simply absent. */
export async function thoughtsByIds(ctx: ThoughtsContext, userId: number, ids: number[]): Promise<Thought[]> {
  const byId = new Map((await listByIds(ctx.db, userId, ids)).map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentThought(row, ctx.cipher)] : [];
  });
}

export async function allThoughts(ctx: ThoughtsContext, userId: number): Promise<Thought[]> {
  return (await listAll(ctx.db, userId)).map((r) => presentThought(r, ctx.cipher));
}

/** Case-insensitive match on content or any tag, newest first (the assistant's lookup). */
export async function searchThoughts(
  ctx: ThoughtsContext,
  userId: number,
  q: string,
  limit: number,
): Promise<Thought[]> {
  const needle = q.toLowerCase();
  const matches = (await allThoughts(ctx, userId)).filter(
    (t) =>
      t.content.toLowerCase().includes(needle) || t.tags.some((tag) => tag.toLowerCase().includes(needle)),
  );
  return matches.slice(0, limit);
}

/**
 * Saves a thought on the user's own calendar day, encrypted, with its `thought.changed` event in the
 * same transaction. A voice entry sent as audio only is queued for transcription.
 */
export async function createThought(
  ctx: ThoughtsContext,
  userId: number,
  body: CreateThoughtBody,
): Promise<Thought> {
  const instant = body.clientDate ? new Date(body.clientDate) : new Date();
  const audio = body.audioData ? audioDataParts(body.audioData) : undefined;
  const text = body.isVoice ? withVoiceMarker(body.content) : body.content;
  const row = await ctx.db.transaction(async (tx) => {
    const created = await insertThought(tx, {
      userId,
      contentEnc: ctx.cipher.encrypt(text, contentContext(userId)),
      audioEnc: audio
        ? ctx.cipher.encryptBytes(Buffer.from(audio.base64, 'base64'), audioContext(userId))
        : null,
      audioMime: audio ? (audio.mimeType ?? 'audio/webm') : null,
      isVoice: body.isVoice,
      category: body.category,
      tags: body.tags ?? [],
      date: instant,
      localDate: localDateOf(instant, body.timezoneOffset),
    });
    await thoughtChanged(tx, created, 'created');
    if (audio && !body.content && ctx.canTranscribe) {
      await writeOutbox(tx, outbox, 'thought.transcribe', { userId, thoughtId: created.id });
    }
    return created;
  });
  ctx.kickOutbox();
  return present(ctx, row);
}

/** Applies the changed fields of the user's own thought; another user's id is a 404. */
export async function updateThought(
  ctx: ThoughtsContext,
  userId: number,
  id: number,
  body: UpdateThoughtBody,
): Promise<Thought> {
  const row = await ctx.db.transaction(async (tx) => {
    const existing = await findOwned(tx, userId, id);
    if (!existing) throw notFound(THOUGHT_NOT_FOUND);
    let contentEnc: string | undefined;
    if (body.content !== undefined) {
      const text = existing.isVoice ? withVoiceMarker(withoutVoiceMarker(body.content)) : body.content;
      contentEnc = ctx.cipher.encrypt(text, contentContext(userId));
    }
    const updated = await updateOwned(tx, userId, id, {
      contentEnc,
      category: body.category,
      tags: body.tags,
    });
    if (!updated) throw notFound(THOUGHT_NOT_FOUND);
    await thoughtChanged(tx, updated, 'updated');
    return updated;
  });
  ctx.kickOutbox();
  return present(ctx, row);
}

export async function deleteThought(
  ctx: ThoughtsContext,
  userId: number,
  id: number,
): Promise<{ success: true }> {
  await ctx.db.transaction(async (tx) => {
    const removed = await deleteOwned(tx, userId, id);
    if (!removed) throw notFound(THOUGHT_NOT_FOUND);
    await thoughtChanged(tx, removed, 'deleted');
  });
  ctx.kickOutbox();
  return { success: true };
}
