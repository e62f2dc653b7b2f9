import type { EncryptedColumn } from '@haven/kit/reencrypt';
import { audioContext, contentContext, metadataContext, titleContext } from './contexts';

const user = (row: Record<string, unknown>) => Number(row.user_id);
const of = (table: string, column: string, context: (userId: number) => string): EncryptedColumn => ({
  schema: 'assistant',
  table,
  column,
  key: ['id'],
  uses: ['user_id'],
  context: (r) => context(user(r)),
});

/** The assistant's encrypted values, for the re-encryption pass after a key rotation. */
export const ENCRYPTED_COLUMNS: EncryptedColumn[] = [
  of('conversations', 'title_enc', titleContext),
  of('messages', 'content_enc', contentContext),
  of('messages', 'audio_enc', audioContext),
  of('messages', 'metadata_enc', metadataContext),
];
