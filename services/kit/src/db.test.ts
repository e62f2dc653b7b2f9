import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from './db';

describe('the embedded database', () => {
  let conn: DatabaseConnection | undefined;
  afterEach(async () => {
    await conn?.close();
    conn = undefined;
  });

  /** What the planner believes of `t`: its rows at the last analysis (-1: never analysed). */
  async function believedRows(): Promise<number> {
    if (conn?.kind !== 'pglite') throw new Error('not embedded');
    const { rows } = await conn.client.query<{ n: number }>(
      `select reltuples::int as n from pg_class where relname = 't'`,
    );
    return rows[0]!.n;
  }

  it('analyses a table once many of its rows have changed, as autovacuum would, and not before', async () => {
    conn = await openDatabase({ dataDir: 'memory://', analyzeCheckMs: 100 });
    if (conn.kind !== 'pglite') throw new Error('not embedded');
    await conn.client.exec('create table t (id serial primary key, v text)');
    await conn.client.exec(`insert into t (v) select 'row ' || g from generate_series(1, 40) g`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // 40 rows changed: under the threshold of 50, so never analysed.
    expect(await believedRows()).toBe(-1);

    await conn.client.exec(`insert into t (v) select 'row ' || g from generate_series(1, 5000) g`);
    await expect.poll(believedRows, { timeout: 5000, interval: 100 }).toBe(5040);
    // 400 more: under a tenth of the table, so it is not analysed again.
    await conn.client.exec(`insert into t (v) select 'row ' || g from generate_series(1, 400) g`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await believedRows()).toBe(5040);
  });
});
