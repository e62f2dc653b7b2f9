import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

/** The Drizzle database every repository receives, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle, accepted wherever a repository function may join the caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** A connection to PostgreSQL: a real server through `pg`, or PGlite embedded in this process. */
export type DatabaseConnection =
  | { kind: 'pg'; pool: pg.Pool; close(): Promise<void> }
  | { kind: 'pglite'; client: PGlite; close(): Promise<void> };

/**
 * Opens the database: `pg` when a URL is given, else PGlite stored under `dataDir/pgdata` (or in
 * memory when `dataDir` is 'memory://'). PGlite is one connection per process, so the all-in-one
 * launcher opens it once and hands the same connection to every service.
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
}): Promise<DatabaseConnection> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it. Queries report their own errors.
    });
    return { kind: 'pg', pool, close: () => pool.end() };
  }
  const dataDir = options.dataDir ?? 'memory://';
  let location = dataDir;
  if (!dataDir.startsWith('memory://')) {
    location = path.resolve(dataDir, 'pgdata');
    mkdirSync(location, { recursive: true });
  }
  const client = await PGlite.create(location);
  const maintenance = maintainEmbedded(client);
  return {
    kind: 'pglite',
    client,
    close: async () => {
      maintenance.stop();
      await client.close();
    },
  };
}

/** How often an embedded database is vacuumed and analysed. */
const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * PGlite runs Postgres in single-user mode, where autovacuum never runs: without this, the dead rows
 * every edit and delete leaves behind would never be reclaimed, and the planner's statistics would
 * stay those of the first day. Runs shortly after start, then hourly.
 */
function maintainEmbedded(client: PGlite): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    client.exec('vacuum analyze').catch(() => {
      // A failed round is retried at the next interval; queries are unaffected.
    });
    timer = setTimeout(run, MAINTENANCE_INTERVAL_MS);
    timer.unref();
  };
  timer = setTimeout(run, 30_000);
  timer.unref();
  return { stop: () => clearTimeout(timer) };
}

/** The Drizzle handle over a connection. */
export function drizzleOf(conn: DatabaseConnection): Db {
  return (conn.kind === 'pg' ? drizzlePg(conn.pool) : drizzlePglite(conn.client)) as unknown as Db;
}

/**
 * Applies a service's committed migrations. Each service keeps its own journal table, so services
 * sharing one database never see each other's history.
 */
export async function runMigrations(
  conn: DatabaseConnection,
  service: string,
  migrationsFolder: string,
): Promise<void> {
  const options = {
    migrationsFolder,
    migrationsSchema: 'drizzle',
    migrationsTable: `__migrations_${service}`,
  };
  if (conn.kind === 'pg') {
    // Serialise concurrent starts of several instances of the same service.
    const client = await conn.pool.connect();
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [`migrate:${service}`]);
      await migratePg(drizzlePg(client), options);
    } finally {
      await client
        .query('select pg_advisory_unlock(hashtext($1))', [`migrate:${service}`])
        .catch(() => undefined);
      client.release();
    }
  } else {
    await migratePglite(drizzlePglite(conn.client), options);
  }
}

/** Throws unless the database answers a trivial query. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
