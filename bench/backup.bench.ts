/**
 * A backup and a restore of a big journal: 10,000 users with 100 thoughts each (1,000,000 thoughts,
 * each ~340 characters of ciphertext-like base64, the size a short thought encrypts to) on the
 * database at DATABASE_URL (PGlite when unset, at a tenth of the size). Reports the time and size of
 * the backup, the restore's time, and the backup's throughput.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, runMigrations, type DatabaseConnection } from '@haven/kit/db';
import { createLogger } from '@haven/kit/logger';
import { createScratchDatabase } from '@haven/kit/testing';
import { createBackups, restoreBackup } from '../services/portability/src/domain/backup/backups';
import { serviceSchemas } from '../services/portability/src/domain/backup/schemas';
import { directoryStore } from '../services/portability/src/domain/backup/store';

const log = createLogger({ name: 'bench', level: 'silent' });

async function exec(conn: DatabaseConnection, text: string): Promise<void> {
  if (conn.kind === 'pg') await conn.pool.query(text);
  else await conn.client.exec(text);
}

async function open(): Promise<{ conn: DatabaseConnection; drop(): Promise<void> }> {
  if (!process.env.DATABASE_URL) {
    const conn = await openDatabase({ dataDir: 'memory://' });
    return { conn, drop: () => conn.close() };
  }
  const scratch = await createScratchDatabase(process.env.DATABASE_URL);
  const conn = await openDatabase({ url: scratch.url, poolSize: 2 });
  return {
    conn,
    drop: async () => {
      await conn.close();
      await scratch.drop();
    },
  };
}

/** Users and their thoughts, written in batches of a thousand users (one statement each). */
async function seed(conn: DatabaseConnection, users: number, each: number): Promise<void> {
  await exec(
    conn,
    `insert into auth.users (username, email, password_hash)
     select 'u' || g, 'u' || g || '@example.com', '$argon2id$v=19$m=19456,t=2,p=1$' || md5(g::text)
       from generate_series(1, ${users}) g`,
  );
  for (let from = 1; from <= users; from += 1000) {
    const to = Math.min(users, from + 999);
    await exec(
      conn,
      `insert into thoughts.thoughts (user_id, content_enc, tag_index, local_date, date)
       select u, 'v1:' || encode(sha256((u * 1000 + n)::text::bytea) || sha256((u + n)::text::bytea)
                || sha256((n * 7 + u)::text::bytea) || sha256((u * 3 - n)::text::bytea)
                || sha256((u * 1000 + n + 1)::text::bytea) || sha256((u + n + 2)::text::bytea)
                || sha256((n * 9 + u)::text::bytea) || sha256((u * 5 - n)::text::bytea), 'base64'),
              array[md5(u::text || 'tag')], date '2020-01-01' + (n % 1500), timestamptz '2020-01-01' + n * interval '13 hours'
         from generate_series(${from}, ${to}) u, generate_series(1, ${each}) n`,
    );
  }
}

export async function benchBackup(): Promise<void> {
  const pg = Boolean(process.env.DATABASE_URL);
  const users = pg ? 10_000 : 1_000;
  const each = 100;
  const services = serviceSchemas();
  const dir = await mkdtemp(path.join(tmpdir(), 'haven-bench-backups-'));
  const source = await open();
  const target = await open();
  try {
    for (const s of services) await runMigrations(source.conn, s.name, s.migrationsFolder);
    let t = performance.now();
    await seed(source.conn, users, each);
    const seedS = (performance.now() - t) / 1000;
    const backups = createBackups({ conn: source.conn, store: directoryStore(dir), services, keep: 2, log });
    t = performance.now();
    const file = await backups.take(new Date());
    const backupS = (performance.now() - t) / 1000;
    t = performance.now();
    const summary = await restoreBackup({
      conn: target.conn,
      input: await backups.store.open(file.name),
      services,
      log,
    });
    const restoreS = (performance.now() - t) / 1000;
    const rows = Object.values(summary.rows).reduce((a, b) => a + b, 0);
    const mb = file.size / 1024 / 1024;
    console.log(
      `\nBackup and restore (${pg ? 'PostgreSQL' : 'PGlite'}): ${users.toLocaleString()} users × ${each} thoughts (${rows.toLocaleString()} rows; seeded in ${seedS.toFixed(0)} s)`,
    );
    console.log(
      `  backup:  ${backupS.toFixed(1)} s, ${mb.toFixed(0)} MB gzip'd (${(rows / backupS / 1000).toFixed(0)}k rows/s)`,
    );
    console.log(
      `  restore: ${restoreS.toFixed(1)} s, checksum checked, schema rebuilt, every row loaded in one transaction`,
    );
  } finally {
    await source.drop();
    await target.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && /backup\.bench\.ts$/.test(process.argv[1]))
  void benchBackup().then(() => process.exit(0));
