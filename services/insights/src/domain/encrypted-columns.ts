import type { EncryptedColumn } from '@haven/kit/reencrypt';
import { contentContext } from './contexts';

/** The insights' encrypted values, for the re-encryption pass after a key rotation. */
export const ENCRYPTED_COLUMNS: EncryptedColumn[] = [
  {
    schema: 'insights',
    table: 'insights',
    column: 'content_enc',
    key: ['id'],
    uses: ['user_id'],
    context: (r) => contentContext(Number(r.user_id)),
  },
];
