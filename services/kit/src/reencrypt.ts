/**
 * The re-encryption pass after a key rotation (`npm run rekey`): every encrypted value not under the
 * current DATA_ENCRYPTION_KEY is decrypted (with the old key, from DATA_ENCRYPTION_OLD_KEYS) and
 * written again under the current one, so the old key can be removed. Each service declares its
 * encrypted columns and the context each value is bound to; values are rewritten row by row, each
 * only if it is still the value read, so writers may go on meanwhile.
 */
import type { FieldCipher } from './crypto';
import type { DatabaseConnection } from './db';

/** One encrypted column: where it is, which columns name a row, and the context of each value. */
export interface EncryptedColumn {
  schema: string;
  table: string;
  column: string;
  /** The row's primary key columns. */
  key: readonly string[];
  /** The columns `context` reads (besides the key). */
  uses?: readonly string[];
  /** The context (AAD) the value was encrypted with, from the row's columns (as PostgreSQL returns them). */
  context(row: Record<string, unknown>): string;
}

type Query = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** Plain SQL on either driver (this pass names its tables at run time). */
export function plainQuery(conn: DatabaseConnection): Query {
  if (conn.kind === 'pg') return async (text, params) => (await conn.pool.query(text, params)).rows;
  return async (text, params) => (await conn.client.query<Record<string, unknown>>(text, params)).rows;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const tableOf = (c: EncryptedColumn) => `${ident(c.schema)}.${ident(c.table)}`;

/** How many values of the column each key id encrypts (`enc1.<keyId>.…`). */
export async function countByKey(query: Query, c: EncryptedColumn): Promise<Record<string, number>> {
  const rows = await query(
    `select split_part(${ident(c.column)}, '.', 2) as key_id, count(*)::int as n from ${tableOf(c)}
      where ${ident(c.column)} like 'enc1.%' group by 1`,
  );
  return Object.fromEntries(rows.map((r) => [String(r.key_id), Number(r.n)]));
}

const BATCH = 200;

/** Re-encrypts the column's values not under the current key; resolves with how many were rewritten. */
export async function reencryptColumn(
  query: Query,
  cipher: FieldCipher,
  c: EncryptedColumn,
): Promise<number> {
  const col = ident(c.column);
  const keys = c.key.map(ident);
  const read = [...new Set([...c.key, ...(c.uses ?? []), c.column])].map(ident).join(', ');
  let after: unknown[] | null = null;
  let rewritten = 0;
  for (;;) {
    const params: unknown[] = [`enc1.${cipher.currentKeyId}.%`];
    let page = '';
    if (after) {
      page = `and (${keys.join(', ')}) > (${after.map((_, i) => `$${i + 2}`).join(', ')})`;
      params.push(...after);
    }
    const rows = await query(
      `select ${read} from ${tableOf(c)}
        where ${col} like 'enc1.%' and ${col} not like $1 ${page}
        order by ${keys.join(', ')} limit ${BATCH}`,
      params,
    );
    for (const row of rows) {
      const old = String(row[c.column]);
      const context = c.context(row);
      const fresh = cipher.encryptBytes(cipher.decryptBytes(old, context), context);
      const match = c.key.map((k, i) => `${ident(k)} = $${i + 3}`).join(' and ');
      const done = await query(
        `update ${tableOf(c)} set ${col} = $1 where ${col} = $2 and ${match} returning 1 as ok`,
        [fresh, old, ...c.key.map((k) => row[k])],
      );
      rewritten += done.length;
    }
    if (rows.length < BATCH) return rewritten;
    const last = rows.at(-1)!;
    after = c.key.map((k) => last[k]);
  }
}
