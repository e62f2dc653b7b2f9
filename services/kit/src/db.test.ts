import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from './db';
import { createScratchDatabase } from './testing';

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

describe.runIf(process.env.DATABASE_URL)('a PostgreSQL server', () => {
  it('keeps two connections open through a quiet spell and closes the rest', async () => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    const conn = await openDatabase({ url: scratch.url, idleMs: 200 });
    try {
      if (conn.kind !== 'pg') throw new Error('not a server');
      const backend = `select pg_backend_pid() as pid, pg_sleep(0.1)`;
      const pidsOf = async (n: number) =>
        new Set(
          (await Promise.all(Array.from({ length: n }, () => conn.pool.query<{ pid: number }>(backend)))).map(
            (r) => r.rows[0]!.pid,
          ),
        );
      const burst = await pidsOf(5);
      expect(conn.pool.totalCount).toBe(5);
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(conn.pool.totalCount).toBe(2);
      // The next requests find them open: the same server processes, none started for them.
      const after = await pidsOf(2);
      expect([...after].every((pid) => burst.has(pid))).toBe(true);
      expect(conn.pool.totalCount).toBe(2);
    } finally {
      await conn.close();
      await scratch.drop();
    }
  });
});
