import type { Thought, ThoughtFormat } from '@haven/contracts/thoughts';
import type { StoredCategory } from '@haven/contracts/common';
import type { FieldCipher } from '@haven/kit/crypto';
import type { ThoughtListRow } from '../db/thoughts.repository';
import type { TagSealer } from './tags';
import { contentContext, audioContext } from './contexts';
export { contentContext, audioContext };

/** Voice entries keep this marker at the start of their stored content. */
export const VOICE_MARKER = '🎤';

export const withVoiceMarker = (text: string) => (text ? `${VOICE_MARKER} ${text}` : VOICE_MARKER);
export const withoutVoiceMarker = (text: string) => text.replace(/^🎤\s*/u, '');

/** Encryption context: a value only decrypts as content of its own owner's thoughts. */

/** Presenter: exactly the fields that leave the service, content and tags decrypted, content unmarked. */
export function presentThought(row: ThoughtListRow, cipher: FieldCipher, tags: TagSealer): Thought {
  return {
    id: row.id,
    content: withoutVoiceMarker(cipher.decrypt(row.contentEnc, contentContext(row.userId))),
    date: row.date,
    localDate: row.localDate,
    timezoneOffset: row.timezoneOffset,
    tags: tags.open(row),
    isVoice: row.isVoice,
    category: row.category as StoredCategory,
    hasAudio: row.hasAudio,
    format: row.format as ThoughtFormat,
  };
}
