import type { EncryptedColumn } from '@haven/kit/reencrypt';
import { MAIL_CONTEXT } from './contexts';

/** Auth's encrypted values (queued e-mails), for the re-encryption pass after a key rotation. */
export const ENCRYPTED_COLUMNS: EncryptedColumn[] = [
  { schema: 'auth', table: 'outgoing_mail', column: 'message_enc', key: ['id'], context: () => MAIL_CONTEXT },
];
