import type { EncryptedColumn } from '@haven/kit/reencrypt';
import { contextOf, reportContext } from './contexts';

/** Portability's encrypted values (export and import files, import reports), for the re-encryption pass. */
export const ENCRYPTED_COLUMNS: EncryptedColumn[] = [
  {
    schema: 'portability',
    table: 'blob_chunks',
    column: 'data_enc',
    key: ['blob_id', 'seq'],
    context: (r) => contextOf(String(r.blob_id), Number(r.seq)),
  },
  {
    schema: 'portability',
    table: 'report_lines',
    column: 'line_enc',
    key: ['id'],
    uses: ['transfer_id'],
    context: (r) => reportContext(String(r.transfer_id)),
  },
];
