import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, runMigrations, type DatabaseConnection } from '@haven/kit/db';
import { createLogger } from '@haven/kit/logger';
import { createScratchDatabase } from '@haven/kit/testing';
import { createBackups, latestSlot, restoreBackup, RestoreRefused } from './backups';
import { RESTORE_APPLICATION } from '../../db/backup.repository';
import { BackupFileError } from './format';
import { serviceSchemas } from './schemas';
import { BackupChecksumError, directoryStore } from './store';

const log = createLogger({ name: 'backup-test', level: 'silent' });
const services = serviceSchemas();

interface Engine {
  name: string;
  open(): Promise<{ conn: DatabaseConnection; url?: string; drop(): Promise<void> }>;
}

const engines: Engine[] = [
  {
    name: 'PGlite',
    open: async () => {
      const conn = await openDatabase({ dataDir: 'memory://' });
      return { conn, drop: () => conn.close() };
    },
  },
];
if (process.env.DATABASE_URL)
  engines.push({
    name: 'PostgreSQL',
    open: async () => {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
      // As the restore command names its sessions, so they are not taken for running services.
      const url = new URL(scratch.url);
      url.searchParams.set('application_name', RESTORE_APPLICATION);
      const conn = await openDatabase({ url: url.toString(), poolSize: 4 });
      return {
        conn,
        url: scratch.url,
        drop: async () => {
          await conn.close();
          await scratch.drop();
        },
      };
    },
  });

async function query<T>(conn: DatabaseConnection, text: string, params: unknown[] = []): Promise<T[]> {
  if (conn.kind === 'pg') return (await conn.pool.query(text, params)).rows as T[];
  return (await conn.client.query<T>(text, params)).rows;
}

async function migrateAll(conn: DatabaseConnection) {
  for (const s of services) await runMigrations(conn, s.name, s.migrationsFolder);
}

/** Text that COPY must escape: tabs, newlines, backslashes, a lone `\.` line, and beyond ASCII. */
const AWKWARD = 'tab\there\nnew line\r\nback\\slash\n\\.\nend ✓ 日本 🎉';

async function seed(conn: DatabaseConnection, users: number) {
  for (let i = 1; i <= users; i++) {
    await query(
      conn,
      `insert into auth.users (username, name, email, password_hash) values ($1, $2, $3, 'h')`,
      [`user${i}`, i === 1 ? AWKWARD : null, `u${i}@example.com`],
    );
  }
  await query(
    conn,
    `insert into thoughts.thoughts (user_id, content_enc, audio_enc, tag_index, local_date, date)
     select 1 + (g % $1), $2 || g, case when g % 3 = 0 then 'audio' || g end, array['a', 'b\\c'], '2024-01-02', '0001-01-01T00:00:00Z'
       from generate_series(1, 50) g`,
    [users, AWKWARD],
  );
}

/** Backups of `conn` into `dir`, keeping five. */
const backupsOf = (conn: DatabaseConnection, dir: string) =>
  createBackups({ conn, store: directoryStore(dir), services, keep: 5, log });

const snapshotOf = async (conn: DatabaseConnection) => ({
  users: await query(conn, `select * from auth.users order by id`),
  thoughts: await query(conn, `select * from thoughts.thoughts order by id`),
  migrations: await query(conn, `select count(*)::int as n from drizzle.__migrations_thoughts`),
});

describe.each(engines)('backup and restore on $name', (engine) => {
  let source: Awaited<ReturnType<Engine['open']>>;
  let dir: string;
  beforeAll(async () => {
    source = await engine.open();
    await migrateAll(source.conn);
    await seed(source.conn, 3);
    dir = await mkdtemp(path.join(tmpdir(), 'haven-backups-'));
  });
  afterAll(async () => {
    await source?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('restores every row, byte for byte, into an empty database, and its sequences go on from there', async () => {
    const backups = backupsOf(source.conn, dir);
    const file = await backups.take(new Date('2026-01-02T03:00:00Z'));
    expect(file.name).toBe('haven-2026-01-02T03-00-00-000Z.backup.gz');
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await readFile(path.join(dir, `${file.name}.sha256`), 'utf8')).toBe(
      `${file.sha256}  ${file.name}\n`,
    );
    const text = gunzipSync(await readFile(path.join(dir, file.name))).toString();
    expect(text.split('\n').slice(0, 3).join('\n')).toMatch(
      /^-- Haven backup.*\n-- It holds no key.*\n-- manifest \{/,
    );

    const target = await engine.open();
    try {
      const summary = await restoreBackup({
        conn: target.conn,
        input: await backups.store.open(file.name),
        services,
        log,
      });
      expect(summary.rows['thoughts.thoughts']).toBe(50);
      expect(await snapshotOf(target.conn)).toEqual(await snapshotOf(source.conn));
      // The services' own start-up finds nothing to migrate and ids go on after the restored ones.
      await migrateAll(target.conn);
      const [next] = await query<{ id: number }>(
        target.conn,
        `insert into auth.users (username, email, password_hash) values ('new', 'new@example.com', 'h') returning id`,
      );
      expect(next!.id).toBe(4);
    } finally {
      await target.drop();
    }
  });

  it('refuses a database that holds a journal, and replaces it only when told to', async () => {
    const backups = backupsOf(source.conn, dir);
    const file = await backups.take(new Date('2026-01-03T03:00:00Z'));
    const target = await engine.open();
    try {
      await migrateAll(target.conn);
      await seed(target.conn, 1);
      await expect(
        restoreBackup({ conn: target.conn, input: await backups.store.open(file.name), services, log }),
      ).rejects.toThrow(RestoreRefused);
      expect((await snapshotOf(target.conn)).users).toHaveLength(1);
      await restoreBackup({
        conn: target.conn,
        input: await backups.store.open(file.name),
        services,
        clean: true,
        log,
      });
      expect(await snapshotOf(target.conn)).toEqual(await snapshotOf(source.conn));
    } finally {
      await target.drop();
    }
  });

  it('keeps nothing of a file cut short, and tells a damaged file by its checksum', async () => {
    const store = directoryStore(dir);
    const backups = createBackups({ conn: source.conn, store, services, keep: 5, log });
    const file = await backups.take(new Date('2026-01-04T03:00:00Z'));
    const whole = gunzipSync(await readFile(path.join(dir, file.name))).toString();
    const cut = whole.slice(0, whole.indexOf('-- table {"schema":"thoughts","name":"thoughts"') + 300);
    const target = await engine.open();
    try {
      const { Readable } = await import('node:stream');
      await expect(
        restoreBackup({ conn: target.conn, input: Readable.from([gzipSync(cut)]), services, log }),
      ).rejects.toThrow(BackupFileError);
      expect(await query(target.conn, `select to_regclass('auth.users') as t`)).toEqual([
        { t: 'auth.users' },
      ]);
      expect(await query(target.conn, `select count(*)::int as n from auth.users`)).toEqual([{ n: 0 }]);

      await writeFile(path.join(dir, file.name), gzipSync(whole.replace('user2', 'user9')));
      await expect(store.open(file.name)).rejects.toThrow(BackupChecksumError);
    } finally {
      await target.drop();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('a backup taken while writers run (PostgreSQL)', () => {
  it('restores one moment: every pair written in one transaction is whole, or absent', async () => {
    const source = await engines[1]!.open();
    const dir = await mkdtemp(path.join(tmpdir(), 'haven-backups-'));
    const target = await engines[1]!.open();
    try {
      await migrateAll(source.conn);
      await seed(source.conn, 1);
      // Enough rows that the dump takes a while, with writers between its tables.
      await query(
        source.conn,
        `insert into thoughts.thoughts (user_id, content_enc, local_date)
         select 1, repeat('x', 200) || g, '2024-01-01' from generate_series(1, 40000) g`,
      );
      let writing = true;
      let pairs = 0;
      const writer = (async () => {
        while (writing) {
          const client = source.conn.kind === 'pg' ? await source.conn.pool.connect() : undefined;
          try {
            await client!.query('begin');
            const { rows } = await client!.query<{ id: number }>(
              `insert into auth.users (username, email, password_hash) values ($1, $1 || '@example.com', 'h') returning id`,
              [`writer${pairs}`],
            );
            await client!.query(
              `insert into thoughts.thoughts (user_id, content_enc, local_date) values ($1, 'pair', '2024-01-01')`,
              [rows[0]!.id],
            );
            await client!.query('commit');
            pairs++;
          } finally {
            client!.release();
          }
        }
      })();
      const backups = backupsOf(source.conn, dir);
      while (pairs < 5) await new Promise((resolve) => setTimeout(resolve, 5));
      const file = await backups.take(new Date());
      writing = false;
      await writer;
      await restoreBackup({ conn: target.conn, input: await backups.store.open(file.name), services, log });
      const [counts] = await query<{ users: number; pairs: number; matched: number }>(
        target.conn,
        `select (select count(*)::int from auth.users where username like 'writer%') as users,
                (select count(*)::int from thoughts.thoughts where content_enc = 'pair') as pairs,
                (select count(*)::int from thoughts.thoughts t join auth.users u on u.id = t.user_id
                  where t.content_enc = 'pair' and u.username like 'writer%') as matched`,
      );
      expect(counts!.users).toBeGreaterThanOrEqual(5);
      expect(counts!.users).toBeLessThan(pairs);
      expect(counts).toEqual({ users: counts!.users, pairs: counts!.users, matched: counts!.users });
    } finally {
      await source.drop();
      await target.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('a restore under running services (PostgreSQL)', () => {
  it('is refused while another session is connected, and goes ahead once it is gone', async () => {
    const source = await engines[1]!.open();
    const target = await engines[1]!.open();
    const dir = await mkdtemp(path.join(tmpdir(), 'haven-backups-'));
    const { default: pg } = await import('pg');
    const service = new pg.Client({ connectionString: target.url });
    try {
      await migrateAll(source.conn);
      await seed(source.conn, 2);
      const backups = backupsOf(source.conn, dir);
      const file = await backups.take(new Date());
      await service.connect();
      const restore = async () =>
        restoreBackup({ conn: target.conn, input: await backups.store.open(file.name), services, log });
      await expect(restore()).rejects.toThrow(
        /1 other connection is open to this database: stop Haven's services/,
      );
      await service.end();
      await restore();
      expect((await snapshotOf(target.conn)).users).toHaveLength(2);
    } finally {
      await service.end().catch(() => undefined);
      await source.drop();
      await target.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('schedule and retention', () => {
  it('finds the slot a nightly schedule last passed, and a backup taken since makes it not due', async () => {
    expect(latestSlot('0 3 * * *', new Date('2026-05-05T02:59:00Z'), 'UTC')).toEqual(
      new Date('2026-05-04T03:00:00Z'),
    );
    expect(latestSlot('0 3 * * *', new Date('2026-05-05T03:00:00Z'), 'UTC')).toEqual(
      new Date('2026-05-05T03:00:00Z'),
    );
    const conn = await openDatabase({ dataDir: 'memory://' });
    const dir = await mkdtemp(path.join(tmpdir(), 'haven-backups-'));
    try {
      await migrateAll(conn);
      const backups = createBackups({ conn, store: directoryStore(dir), services, keep: 2, log });
      const now = new Date('2026-05-05T10:00:00Z');
      expect(await backups.due('0 3 * * *', now, 'UTC')).toEqual(new Date('2026-05-05T03:00:00Z'));
      for (const day of ['01', '02', '03', '05']) await backups.take(new Date(`2026-05-${day}T03:00:00Z`));
      expect(await backups.due('0 3 * * *', now, 'UTC')).toBeNull();
      expect((await backups.store.list()).map((f) => f.name)).toEqual([
        'haven-2026-05-03T03-00-00-000Z.backup.gz',
        'haven-2026-05-05T03-00-00-000Z.backup.gz',
      ]);
    } finally {
      await conn.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
