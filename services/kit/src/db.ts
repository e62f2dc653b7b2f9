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
import { isDatabaseUnavailable } from './db-errors';
import { currentContext } from './context';
import type { Logger } from './logger';

/** The Drizzle database every repository receives, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle, accepted wherever a repository function may join the caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** A connection to PostgreSQL: a real server through `pg`, or PGlite embedded in this process. */
export type DatabaseConnection =
  | { kind: 'pg'; pool: pg.Pool; close(): Promise<void> }
  | { kind: 'pglite'; client: PGlite; close(): Promise<void> };

/** How long one query of a public request may take before the request answers 503. */
export const REQUEST_QUERY_TIMEOUT_MS = 2000;
/** Server connections a pool keeps open however quiet it is, and how long the others may idle. */
const KEPT_CONNECTIONS = 2;
const IDLE_CONNECTION_MS = 60_000;

/**
 * Gives the client's queries the bound of the work they run for (`WorkContext.queryTimeoutMs`), so
 * a database that stops answering (a hung host, not a refused connection) turns a request into a
 * 503 within that time instead of holding it until TCP notices. Queries given as text (the
 * migration lock) and pg's own query objects are left as they are.
 */
function boundQueries(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (config: unknown, ...rest: unknown[]) => {
    const bound = currentContext()?.queryTimeoutMs;
    if (
      bound &&
      typeof config === 'object' &&
      config !== null &&
      !('submit' in config) &&
      !('query_timeout' in config)
    )
      return query({ ...config, query_timeout: bound }, ...rest);
    return query(config, ...rest);
  };
}

/**
 * Opens the database: `pg` when a URL is given, else PGlite stored under `dataDir/pgdata` (or in
 * memory when `dataDir` is 'memory://'). PGlite is one connection per process, so the all-in-one
 * launcher opens it once and hands the same connection to every service.
 */
export async function openDatabase(options: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
  log?: Logger;
  /** How often embedded tables changed since their last analysis are looked for (tests shorten it). */
  analyzeCheckMs?: number;
  /** How long a server connection beyond the two kept may sit idle before it closes (tests shorten it). */
  idleMs?: number;
}): Promise<DatabaseConnection> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      // Two connections stay open through quiet spells (the rest close after a minute idle): opening
      // one (a backend forked, the password checked) is the slow part on a busy machine, and a burst of
      // sign-ups after a quiet spell once waited past the bound below for new ones (503s in the compose walk).
      min: Math.min(KEPT_CONNECTIONS, options.poolSize ?? 10),
      idleTimeoutMillis: options.idleMs ?? IDLE_CONNECTION_MS,
      // While the server is down or hangs a request should fail fast (503), not wait in line for a
      // socket: a connection takes milliseconds when the server answers at all.
      connectionTimeoutMillis: REQUEST_QUERY_TIMEOUT_MS,
      // A server that vanished without closing its sockets (a host lost, not a restart) is noticed
      // by TCP keepalive instead of leaving a query waiting for hours.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const lost = (err: Error) =>
      options.log?.warn({ err }, 'database connection lost; it will be replaced on next use');
    // An idle client that loses its connection is replaced by the pool. A client checked out (in a
    // transaction) gets no listener from the pool: without this one,
    // the server going away would be an unhandled 'error' event, fatal to the whole process.
    pool.on('error', lost);
    pool.on('connect', (client) => {
      client.on('error', lost);
      boundQueries(client);
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
  const maintenance = maintainEmbedded(client, options.analyzeCheckMs ?? ANALYZE_CHECK_MS);
  return {
    kind: 'pglite',
    client,
    close: async () => {
      await maintenance.stop();
      await client.close();
    },
  };
}

/** How often an embedded database is vacuumed and analysed, and when first. */
const MAINTENANCE_INTERVAL_MS = 60 * 60 * 1000;
const FIRST_MAINTENANCE_MS = 10 * 60 * 1000;
/** How often the tables changed since their last analysis are looked for (autovacuum's naptime is 60 s). */
const ANALYZE_CHECK_MS = 30 * 1000;

/**
 * The tables to analyse now: changed by more rows since their last analysis than autovacuum's
 * default rule asks (50 rows and a tenth of the table). Single-user mode keeps the counts in memory
 * until told to flush them.
 */
async function tablesToAnalyze(client: PGlite): Promise<string[]> {
  await client.query('select pg_stat_force_next_flush()');
  const { rows } = await client.query<{ name: string }>(
    `select format('%I.%I', s.schemaname, s.relname) as name
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
      order by 1`,
  );
  return rows.map((r) => r.name);
}

/**
 * PGlite runs Postgres in single-user mode, where autovacuum never runs. Without this, the dead rows
 * every edit and delete leaves behind would never be reclaimed, and the planner would go on planning
 * by the statistics of an empty table (a journal of 10,000 imported entries searched as if it held
 * none: the wrong index, several times slower). So, as autovacuum would:
 * - every 30 s, a table changed by more than a tenth of its rows since it was last analysed is
 *   analysed (a sample: milliseconds for small tables, well under a second for large ones);
 * - the whole database is vacuumed and analysed, table by table, first ten minutes after start (it
 *   once ran 30 s after start, in the middle of a person's first steps, and the browser tests' flows
 *   stalled behind it on a busy machine), then hourly.
 * PGlite runs on this process's one thread, so each holds every request while it works: they go a
 * table at a time, yielding between tables, and never both at once.
 */
function maintainEmbedded(client: PGlite, analyzeCheckMs: number): { stop(): Promise<void> } {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let busy: Promise<unknown> = Promise.resolve();
  const eachTable = async (names: string[], command: string) => {
    for (const name of names) {
      if (stopped) return;
      await client.exec(`${command} ${name}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const vacuumAll = async () => {
    const { rows } = await client.query<{ name: string }>(
      `select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables order by 1`,
    );
    await eachTable(
      rows.map((r) => r.name),
      'vacuum analyze',
    );
  };
  const analyzeChanged = async () => eachTable(await tablesToAnalyze(client), 'analyze');
  const every = (work: () => Promise<void>, firstMs: number, intervalMs: number) => {
    const run = () => {
      timers.delete(timer);
      // A failed round is retried at the next interval; queries are unaffected.
      busy = busy
        .then(work)
        .catch(() => undefined)
        .finally(() => {
          if (stopped) return;
          timer = setTimeout(run, intervalMs);
          timer.unref();
          timers.add(timer);
        });
    };
    let timer = setTimeout(run, firstMs);
    timer.unref();
    timers.add(timer);
  };
  every(analyzeChanged, analyzeCheckMs, analyzeCheckMs);
  every(vacuumAll, FIRST_MAINTENANCE_MS, MAINTENANCE_INTERVAL_MS);
  return {
    // Stops between two tables: the connection closes with no command of this left running.
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      await busy;
    },
  };
}

/** The Drizzle handle over a connection. */
export function drizzleOf(conn: DatabaseConnection): Db {
  return conn.kind === 'pg' ? drizzleOverPool(conn.pool) : (drizzlePglite(conn.client) as unknown as Db);
}

/**
 * Drizzle over a `pg` pool, with transactions that always give their connection back. Drizzle's own
 * `transaction` checks a client out and sends `begin` before its try/finally: when the server goes
 * away at that moment, the client is never released, and once `max` of them are lost every request
 * waits for a connection that never comes, long after the server is back (and `pool.end()` never
 * returns). Here the client is checked out and released by us, and destroyed when its connection
 * failed, so the pool opens a fresh one.
 */
function drizzleOverPool(pool: pg.Pool): Db {
  const db = drizzlePg(pool);
  const transaction: typeof db.transaction = async (work, config) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      return await drizzlePg(client).transaction(work, config);
    } catch (err) {
      if (isDatabaseUnavailable(err)) broken = err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  };
  db.transaction = transaction;
  return db as unknown as Db;
}

/**
 * Applies a service's committed migrations. Each service keeps its own journal table, so services
 * sharing one database never see each other's history.
 */
/** How long a starting service waits for its database (a whole stack may start at once). */
const STARTUP_CONNECT_MS = 90_000;

/**
 * Start-up's own connection, outside the pool: the pool gives up on a new connection after 2 s
 * (request paths must answer fast), and a client that gives up hangs up mid-handshake, which a
 * busy server starting a whole stack at once may take badly. This one waits as long as start-up
 * may, and asks again, with a growing pause, while the server refuses (still starting).
 */
async function startupClient(pool: pg.Pool): Promise<pg.Client> {
  const deadline = Date.now() + STARTUP_CONNECT_MS;
  for (let pause = 250; ; pause = Math.min(pause * 2, 4_000)) {
    const client = new pg.Client({
      connectionString: pool.options.connectionString,
      connectionTimeoutMillis: Math.max(1_000, deadline - Date.now()),
      keepAlive: true,
    });
    // A server lost mid-migration fails the start-up with a rejected query, never an unhandled 'error' event.
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (Date.now() + pause > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

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
    // Serialise concurrent starts: of several instances of one service, and of different services
    // too, since every service's migrations first create the shared `drizzle` schema, and
    // `create schema if not exists` run at the same moment by two sessions fails (23505). The client comes from
    // the pool, so its 'error' listener (see openDatabase) is already on: a server lost mid-migration
    // fails the start-up with a rejected promise, never an unhandled 'error' event.
    const client = await startupClient(conn.pool);
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', ['migrate:haven']);
      await migratePg(drizzlePg(client), options);
    } finally {
      // Closing the connection releases the lock as well.
      await client.query('select pg_advisory_unlock(hashtext($1))', ['migrate:haven']).catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  } else {
    await migratePglite(drizzlePglite(conn.client), options);
  }
}

/** Throws unless the database answers a trivial query. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
