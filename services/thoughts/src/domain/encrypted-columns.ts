import type { EncryptedColumn } from '@haven/kit/reencrypt';
import { audioContext, contentContext, embeddingContext } from './contexts';

const user = (row: Record<string, unknown>) => Number(row.user_id);

/**
 * The thoughts service's encrypted values, for the re-encryption pass after a key rotation. Not the
 * tags: their blind index is keyed by the key too, so this service re-encrypts and re-indexes them
 * itself at start (domain/tag-migration.ts).
 */
export const ENCRYPTED_COLUMNS: EncryptedColumn[] = [
  {
    schema: 'thoughts',
    table: 'thoughts',
    column: 'content_enc',
    key: ['id'],
    uses: ['user_id'],
    context: (r) => contentContext(user(r)),
  },
  {
    schema: 'thoughts',
    table: 'thoughts',
    column: 'audio_enc',
    key: ['id'],
    uses: ['user_id'],
    context: (r) => audioContext(user(r)),
  },
  {
    schema: 'thoughts',
    table: 'embeddings',
    column: 'vector_enc',
    key: ['thought_id'],
    uses: ['user_id'],
    context: (r) => embeddingContext(user(r)),
  },
];
