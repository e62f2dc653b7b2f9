/**
 * Backups of the whole database and their restore: when one is due (BACKUP_CRON), taking it (one
 * consistent snapshot, gzip'd, checksummed), keeping the newest BACKUP_KEEP, and restoring one into
 * an empty database with the migrations of the version that made it.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { CronExpressionParser } from 'cron-parser';
import { runMigrations, type DatabaseConnection } from '@haven/kit/db';
import type { Logger } from '@haven/kit/logger';
import { withLoader, withSnapshot, type MigrationLevel } from '../../db/backup.repository';
import { BackupFileError, readBackup, writeBackup, type BackupManifest } from './format';
import { backupName, type BackupFile, type BackupStore } from './store';

/** Every service's schema and migrations: what a backup holds and a restore rebuilds. */
export interface ServiceSchema {
  name: string;
  migrationsFolder: string;
}

/** The machine's time zone (TZ, or the system's), in which BACKUP_CRON is read. */
const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The latest time at or before `now` when the schedule says a backup should run. */
export function latestSlot(cron: string, now: Date, tz = localTimeZone()): Date {
  const at = new Date(now.getTime() + 1000);
  return CronExpressionParser.parse(cron, { currentDate: at, tz }).prev().toDate();
}

export interface BackupsDeps {
  conn: DatabaseConnection;
  store: BackupStore;
  services: readonly ServiceSchema[];
  /** How many backups to keep: older ones are removed after each new one. */
  keep: number;
  /** The id of the key the data is written with (recorded in the manifest), when known. */
  keyId?: string | null;
  log: Logger;
}

export interface Backups {
  readonly store: BackupStore;
  /** Takes the backup for `at` (named by it). Taking the same one twice writes it once. */
  take(at: Date): Promise<BackupFile>;
  /** The schedule's latest slot when no backup has been taken since it, else null. */
  due(cron: string, now: Date, tz?: string): Promise<Date | null>;
}

export function createBackups(deps: BackupsDeps): Backups {
  const { conn, store } = deps;

  async function prune(): Promise<void> {
    const files = await store.list();
    for (const old of files.slice(0, Math.max(0, files.length - deps.keep))) {
      await store.remove(old.name);
      deps.log.info({ backup: old.name }, 'old backup removed (BACKUP_KEEP)');
    }
  }

  return {
    store,
    async take(at) {
      const name = backupName(at);
      const existing = (await store.list()).find((f) => f.name === name);
      if (existing) return existing;
      const started = Date.now();
      let rows: Record<string, number> = {};
      const file = await store.write(name, async (out) => {
        const gzip = createGzip({ level: 6 });
        const written = pipeline(gzip, out, { end: false });
        try {
          rows = await withSnapshot(conn, (snapshot) =>
            writeBackup(snapshot, gzip, {
              services: deps.services.map((s) => s.name),
              engine: conn.kind,
              createdAt: at,
              keyId: deps.keyId ?? null,
            }),
          );
        } catch (err) {
          gzip.destroy();
          await written.catch(() => undefined);
          throw err;
        }
        gzip.end();
        await written;
      });
      const total = Object.values(rows).reduce((a, b) => a + b, 0);
      deps.log.info(
        {
          backup: file.name,
          bytes: file.size,
          rows: total,
          ms: Date.now() - started,
          location: store.location,
        },
        'backup written',
      );
      await prune();
      return file;
    },
    async due(cron, now, tz) {
      const slot = latestSlot(cron, now, tz);
      const files = await store.list();
      return files.some((f) => f.takenAt >= slot) ? null : slot;
    },
  };
}

// ---- restore ----

export interface RestoreOptions {
  conn: DatabaseConnection;
  input: Readable;
  services: readonly ServiceSchema[];
  /** Replace an install that holds data (its schemas are dropped first). */
  clean?: boolean;
  /** The ids of the keys configured here (current and old), when known: a backup written with none of them is refused. */
  keyIds?: readonly string[];
  /** Restore even when the backup's key is not among `keyIds`. */
  otherKey?: boolean;
  log: Logger;
}

export interface RestoreSummary {
  manifest: BackupManifest;
  rows: Record<string, number>;
}

/** Why a restore was refused, in words an operator can act on. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

interface Journal {
  entries: Array<{ idx: number; when: number; tag: string }>;
}

const readJournal = async (folder: string): Promise<Journal> =>
  JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;

/** How many of this release's migrations the backup's schema had run. */
async function migrationsToReplay(service: ServiceSchema, level: MigrationLevel): Promise<number> {
  if (level.count === 0) return 0;
  const journal = await readJournal(service.migrationsFolder);
  const at = journal.entries.findIndex((e) => e.when === level.last);
  if (at === -1 || at + 1 !== level.count)
    throw new RestoreRefused(
      `This backup was made by a newer version of Haven (its ${service.name} schema has migrations this version does not know): restore it with that version or a later one.`,
    );
  return at + 1;
}

/** Migrates one service's schema to the first `count` migrations (the backup's), in a temporary copy. */
async function migrateTo(conn: DatabaseConnection, service: ServiceSchema, count: number): Promise<void> {
  const journal = await readJournal(service.migrationsFolder);
  const folder = await mkdtemp(path.join(tmpdir(), `haven-migrations-${service.name}-`));
  try {
    const entries = journal.entries.slice(0, count);
    await cp(path.join(service.migrationsFolder, 'meta'), path.join(folder, 'meta'), { recursive: true });
    await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
    for (const e of entries)
      await cp(path.join(service.migrationsFolder, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
    await runMigrations(conn, service.name, folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A backup whose key is not configured here would restore into a journal no one can read. */
function refuseOtherKey(manifest: BackupManifest, options: RestoreOptions): void {
  const { keyIds } = options;
  if (!manifest.keyId || !keyIds || keyIds.includes(manifest.keyId) || options.otherKey) return;
  throw new RestoreRefused(
    `This backup was written with the key ${manifest.keyId}, but the key here is ${keyIds.join(', ')}: Haven could not read it. Put back the DATA_ENCRYPTION_KEY you kept (for npm start: data/secrets.json), or pass --other-key to restore anyway.`,
  );
}

/** Empties the database for the restore: refuses when it holds data, unless told to replace it. */
async function prepareTarget(options: RestoreOptions, manifest: BackupManifest): Promise<void> {
  const names = options.services.map((s) => s.name);
  const schemas = [...new Set([...names, ...manifest.schemas])];
  await withLoader(options.conn, async (loader) => {
    const others = await loader.otherSessions();
    if (others > 0)
      throw new RestoreRefused(
        `${others} other connection${others === 1 ? ' is' : 's are'} open to this database: stop Haven's services first (docker compose stop, or scale the Deployments to 0), then restore.`,
      );
    const rows = await loader.rowCount(await loader.tables(schemas));
    if (rows > 0 && !options.clean)
      throw new RestoreRefused(
        `The database already holds a Haven journal (${rows} rows). Restore into an empty database, or pass --clean to replace everything in it with the backup.`,
      );
    if (rows > 0) options.log.warn({ rows }, 'restore: replacing the data in the database (--clean)');
    await loader.dropAll(schemas, names);
  });
}

/**
 * Restores a backup (gzip'd) into the database: refuses a database that holds data unless `clean`,
 * rebuilds each schema with the migrations the backup was made with, loads every row in one
 * transaction and sets the sequences. The services' own start-up then runs any newer migrations.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreSummary> {
  const parts = readBackup(options.input.pipe(createGunzip()));
  const first = await parts.next();
  if (first.done || first.value.kind !== 'manifest') throw new BackupFileError('Not a Haven backup');
  const manifest = first.value.manifest;
  refuseOtherKey(manifest, options);
  const known = new Map(options.services.map((s) => [s.name, s]));
  const replay = new Map<string, number>();
  for (const [name, level] of Object.entries(manifest.services)) {
    const service = known.get(name);
    if (!service)
      throw new RestoreRefused(`This backup holds a "${name}" service this version does not have.`);
    replay.set(name, await migrationsToReplay(service, level));
  }
  await prepareTarget(options, manifest);
  for (const [name, count] of replay) await migrateTo(options.conn, known.get(name)!, count);
  const rows = await withLoader(options.conn, async (loader) => {
    for await (const part of parts) {
      if (part.kind === 'table') await loader.copyIn(part.table, part.rows);
      if (part.kind === 'end') {
        for (const s of manifest.sequences) await loader.setSequence(s);
        return part.rows;
      }
    }
    throw new BackupFileError('The backup ends early: it was cut short or is damaged');
  });
  return { manifest, rows };
}
