/**
 * The database side of backups: the catalogue of every service's tables, their rows as COPY text,
 * read in one snapshot, and written back in one transaction. The only code that queries for a backup;
 * it speaks to PostgreSQL through `pg` (COPY streamed) and to PGlite (COPY through a blob).
 */
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { DatabaseConnection } from '@haven/kit/db';

export interface TableInfo {
  schema: string;
  name: string;
  /** Stored columns in order (generated columns are left out: they are computed again). */
  columns: string[];
}

export interface SequenceValue {
  schema: string;
  name: string;
  lastValue: string;
  isCalled: boolean;
}

/** Where one service's schema stands: how many migrations ran, and when the last was made. */
export interface MigrationLevel {
  count: number;
  /** drizzle's `created_at` of the last migration applied (the journal's `when`), or null when none. */
  last: number | null;
}

/** One read-only view of the whole database, as it was when the snapshot began. */
export interface Snapshot {
  tables(schemas: readonly string[]): Promise<TableInfo[]>;
  sequences(schemas: readonly string[]): Promise<SequenceValue[]>;
  migrationLevel(service: string): Promise<MigrationLevel>;
  /** Streams the table's rows as COPY text into `out` (not ended). */
  copyOut(table: TableInfo, out: Writable): Promise<void>;
}

/** One transaction that loads a backup's rows; nothing is kept unless all of it is. */
export interface Loader {
  tables(schemas: readonly string[]): Promise<TableInfo[]>;
  /** How many rows the schemas' tables hold together (a restore goes only into an empty database). */
  rowCount(tables: readonly TableInfo[]): Promise<number>;
  migrationLevel(service: string): Promise<MigrationLevel>;
  /** Loads COPY text (whole lines) into the table. */
  copyIn(table: TableInfo, rows: AsyncIterable<Buffer>): Promise<void>;
  setSequence(value: SequenceValue): Promise<void>;
  /** Drops the schemas and the migration records of `services` (a restore over an existing install). */
  dropAll(schemas: readonly string[], services: readonly string[]): Promise<void>;
  /**
   * How many other sessions are connected to the database (Haven's services still running), those
   * named RESTORE_APPLICATION (this restore's own) aside. Always 0 on PGlite, which has one.
   */
  otherSessions(): Promise<number>;
}

/** The application_name a restore's connections carry, so they are not taken for running services. */
export const RESTORE_APPLICATION = 'haven-restore';

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (t: { schema: string; name: string }) => `${ident(t.schema)}.${ident(t.name)}`;
const columnList = (t: TableInfo) => t.columns.map(ident).join(', ');

/**
 * The schemas' tables, those referenced by a foreign key before those that reference them, so that
 * rows load in an order every constraint accepts.
 */
async function listTables(query: Query, schemas: readonly string[]): Promise<TableInfo[]> {
  const rows = await query<{ schema: string; name: string; columns: string[] }>(
    `select n.nspname as schema, c.relname as name,
            array_agg(a.attname::text order by a.attnum) as columns
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      where c.relkind in ('r', 'p') and n.nspname = any($1::text[])
      group by n.nspname, c.relname
      order by n.nspname, c.relname`,
    [schemas],
  );
  const edges = await query<{ child: string; parent: string }>(
    `select format('%s.%s', cn.nspname, cc.relname) as child, format('%s.%s', pn.nspname, pc.relname) as parent
       from pg_constraint k
       join pg_class cc on cc.oid = k.conrelid join pg_namespace cn on cn.oid = cc.relnamespace
       join pg_class pc on pc.oid = k.confrelid join pg_namespace pn on pn.oid = pc.relnamespace
      where k.contype = 'f' and cn.nspname = any($1::text[]) and k.conrelid <> k.confrelid`,
    [schemas],
  );
  return parentsFirst(rows, edges);
}

function parentsFirst<T extends { schema: string; name: string }>(
  tables: T[],
  edges: Array<{ child: string; parent: string }>,
): T[] {
  const key = (t: T) => `${t.schema}.${t.name}`;
  const byKey = new Map(tables.map((t) => [key(t), t]));
  const ordered: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (k: string) => {
    if (state.get(k) || !byKey.has(k)) return;
    state.set(k, 'visiting');
    for (const e of edges) if (e.child === k) visit(e.parent);
    state.set(k, 'done');
    ordered.push(byKey.get(k)!);
  };
  for (const t of tables) visit(key(t));
  return ordered;
}

async function listSequences(query: Query, schemas: readonly string[]): Promise<SequenceValue[]> {
  const names = await query<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'S' and n.nspname = any($1::text[]) order by 1, 2`,
    [schemas],
  );
  const values: SequenceValue[] = [];
  for (const s of names) {
    const [row] = await query<{ last_value: string; is_called: boolean }>(
      `select last_value::text, is_called from ${qualified(s)}`,
    );
    values.push({ ...s, lastValue: row!.last_value, isCalled: row!.is_called });
  }
  return values;
}

async function readMigrationLevel(query: Query, service: string): Promise<MigrationLevel> {
  const [exists] = await query<{ found: boolean }>(`select to_regclass($1) is not null as found`, [
    `drizzle.__migrations_${service}`,
  ]);
  if (!exists?.found) return { count: 0, last: null };
  const [row] = await query<{ count: number; last: string | null }>(
    `select count(*)::int as count, max(created_at)::text as last from drizzle.${ident(`__migrations_${service}`)}`,
  );
  return { count: row!.count, last: row!.last === null ? null : Number(row!.last) };
}

async function countRows(query: Query, tables: readonly TableInfo[]): Promise<number> {
  if (tables.length === 0) return 0;
  const parts = tables.map((t) => `(select count(*) from ${qualified(t)})`).join(' + ');
  const [row] = await query<{ n: string }>(`select (${parts})::text as n`);
  return Number(row!.n);
}

async function setSequence(query: Query, s: SequenceValue): Promise<void> {
  await query(`select setval($1, $2::bigint, $3)`, [qualified(s), s.lastValue, s.isCalled]);
}

async function dropSchemas(query: Query, schemas: readonly string[], services: readonly string[]) {
  for (const s of schemas) await query(`drop schema if exists ${ident(s)} cascade`);
  for (const s of services) await query(`drop table if exists drizzle.${ident(`__migrations_${s}`)}`);
}

// ---- PostgreSQL: one client, a repeatable-read snapshot or one write transaction, COPY streamed ----

function pgQuery(client: pg.PoolClient): Query {
  return async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[];
}

async function withPgTransaction<T>(
  pool: pg.Pool,
  begin: string,
  run: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await run(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

function pgSnapshot(client: pg.PoolClient): Snapshot {
  const query = pgQuery(client);
  return {
    tables: (schemas) => listTables(query, schemas),
    sequences: (schemas) => listSequences(query, schemas),
    migrationLevel: (service) => readMigrationLevel(query, service),
    copyOut: async (table, out) => {
      const source = client.query(copyTo(`copy ${qualified(table)} (${columnList(table)}) to stdout`));
      await pipeline(source, out, { end: false });
    },
  };
}

function pgLoader(client: pg.PoolClient): Loader {
  const query = pgQuery(client);
  return {
    tables: (schemas) => listTables(query, schemas),
    rowCount: (tables) => countRows(query, tables),
    migrationLevel: (service) => readMigrationLevel(query, service),
    copyIn: async (table, rows) => {
      const sink = client.query(copyFrom(`copy ${qualified(table)} (${columnList(table)}) from stdin`));
      await pipeline(Readable.from(rows), sink);
    },
    setSequence: (s) => setSequence(query, s),
    dropAll: (schemas, services) => dropSchemas(query, schemas, services),
    otherSessions: async () => {
      const [row] = await query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
            and coalesce(application_name, '') <> $1`,
        [RESTORE_APPLICATION],
      );
      return row!.n;
    },
  };
}

// ---- PGlite: the one connection, held for the whole transaction; COPY through '/dev/blob' ----

/** How much COPY text one statement loads into PGlite at a time. */
const PGLITE_CHUNK_BYTES = 8 * 1024 * 1024;

function pgliteQuery(tx: Transaction | PGlite): Query {
  return async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows;
}

function pgliteSnapshot(tx: Transaction): Snapshot {
  const query = pgliteQuery(tx);
  return {
    tables: (schemas) => listTables(query, schemas),
    sequences: (schemas) => listSequences(query, schemas),
    migrationLevel: (service) => readMigrationLevel(query, service),
    copyOut: async (table, out) => {
      const result = await tx.query(`copy ${qualified(table)} (${columnList(table)}) to '/dev/blob'`);
      if (!result.blob) return;
      await pipeline(Readable.fromWeb(result.blob.stream() as never), out, { end: false });
    },
  };
}

function pgliteLoader(tx: Transaction): Loader {
  const query = pgliteQuery(tx);
  const load = (table: TableInfo, chunk: Buffer) =>
    tx.query(`copy ${qualified(table)} (${columnList(table)}) from '/dev/blob'`, [], {
      blob: new Blob([new Uint8Array(chunk)]),
    });
  return {
    tables: (schemas) => listTables(query, schemas),
    rowCount: (tables) => countRows(query, tables),
    migrationLevel: (service) => readMigrationLevel(query, service),
    copyIn: async (table, rows) => {
      let parts: Buffer[] = [];
      let size = 0;
      for await (const part of rows) {
        parts.push(part);
        size += part.length;
        if (size >= PGLITE_CHUNK_BYTES) {
          await load(table, Buffer.concat(parts));
          parts = [];
          size = 0;
        }
      }
      if (size > 0) await load(table, Buffer.concat(parts));
    },
    setSequence: (s) => setSequence(query, s),
    dropAll: (schemas, services) => dropSchemas(query, schemas, services),
    otherSessions: async () => 0,
  };
}

/**
 * Runs `read` on one consistent snapshot of the database. On PostgreSQL writers go on meanwhile
 * (repeatable read sees none of them); PGlite has one connection, so other queries wait until it ends.
 */
export function withSnapshot<T>(conn: DatabaseConnection, read: (s: Snapshot) => Promise<T>): Promise<T> {
  if (conn.kind === 'pg')
    return withPgTransaction(conn.pool, 'begin isolation level repeatable read read only', (client) =>
      read(pgSnapshot(client)),
    );
  return conn.client.transaction((tx) => read(pgliteSnapshot(tx)));
}

/** Runs `load` in one transaction: all of a restore is kept, or none of it. */
export function withLoader<T>(conn: DatabaseConnection, load: (l: Loader) => Promise<T>): Promise<T> {
  if (conn.kind === 'pg') return withPgTransaction(conn.pool, 'begin', (client) => load(pgLoader(client)));
  return conn.client.transaction((tx) => load(pgliteLoader(tx)));
}
