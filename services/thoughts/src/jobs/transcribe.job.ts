import { UnrecoverableError } from 'bullmq';
import type { Llm } from '@haven/kit/llm';
import { defineJob } from '@haven/kit/queue';
import type { ServiceDeps } from '@haven/kit/service';
import { findOwned, updateOwned } from '../db/thoughts.repository';
import { audioContext, contentContext, withoutVoiceMarker, withVoiceMarker } from '../domain/present';
import { thoughtChanged } from '../domain/thoughts';

/**
 * Fills in the text of a voice thought that arrived as audio only. Idempotent: a thought that is
 * gone, has no audio, or already has text is left alone.
 */
export function transcribeJob({ db, cipher, outbox: relay }: ServiceDeps, llm: Llm) {
  return defineJob({
    queue: 'thought.transcribe',
    concurrency: 2,
    async handle({ userId, thoughtId }, { log }) {
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
      await db.transaction(async (tx) => {
        const updated = await updateOwned(tx, userId, thoughtId, {
          contentEnc: cipher.encrypt(withVoiceMarker(text), contentContext(userId)),
        });
        if (!updated) return;
        await thoughtChanged(tx, updated, 'updated');
      });
      relay?.kick();
      log.info({ thoughtId }, 'voice thought transcribed');
    },
  });
}
