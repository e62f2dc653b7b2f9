import { UnrecoverableError } from '@haven/kit/queue';
import { findOwned, updateOwned } from '../db/thoughts.repository';
import { audioContext, contentContext, withoutVoiceMarker, withVoiceMarker } from './present';
import { thoughtKey } from './portability';
import { rowColumns } from './search/entry';
import { thoughtChanged } from './thought-changed';
import type { ThoughtsDeps } from './thoughts-deps';

/** The `thought.transcribe` job's domain part: a voice thought's audio turned into its text. */
export function createTranscription(deps: ThoughtsDeps) {
  const { db, uow, cipher, tags, keys, search, llm, log } = deps;

  /**
   * Fills in the text of a voice thought that arrived as audio only. Idempotent: a thought that is
   * gone, has no audio, or already has text is left alone; so is every thought when no model is
   * configured (the entry keeps its audio, and its empty text says so).
   */
  return async function transcribe(userId: number, thoughtId: number): Promise<void> {
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
  };
}
