/**
 * `npm run backup` and `npm run restore FILE` (and, in the image, `backup` / `restore FILE` as the
 * container's command): the whole database, every service's schema, to and from a backup file.
 *
 *   backup            takes a backup now into BACKUP_URL, a folder or s3:// bucket (default DATA_DIR/backups)
 *   backup --list     lists the backups there, with size, time and checksum
 *   restore FILE      restores FILE (a path, or a backup's name in BACKUP_URL) into an empty database
 *   restore FILE --clean   replaces what the database holds (PGlite's old folder is kept aside)
 *   restore FILE --other-key   restores a backup written with a key that is not configured here
 *
 * With DATABASE_URL it works on that PostgreSQL, while the services run (a backup) or are stopped (a
 * restore). Without, on the PGlite folder of `npm start`: a backup asks the running process to take
 * it, and a restore wants it stopped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, loadConfig } from '@haven/kit/config';
import { keyIdOf } from '@haven/kit/crypto';
import { openDatabase, type DatabaseConnection } from '@haven/kit/db';
import { runningFrom } from '@haven/kit/instance-lock';
import { createLogger } from '@haven/kit/logger';
import { RESTORE_APPLICATION } from './db/backup.repository';
import { createBackups, restoreBackup, RestoreRefused } from './domain/backup/backups';
import { BackupFileError } from './domain/backup/format';
import { serviceSchemas } from './domain/backup/schemas';
import {
  BackupChecksumError,
  directoryStore,
  takenAtOf,
  type BackupFile,
  type BackupStore,
} from './domain/backup/store';
import { backupStoreAt, isBucketUrl } from './domain/backup/stores';

interface Settings {
  dataDir: string;
  databaseUrl?: string;
  /** Where backups are: BACKUP_URL's folder or bucket. */
  store: BackupStore;
  keep: number;
  /** The ids of the keys configured (current first), or null when none is: never the keys themselves. */
  keyIds: string[] | null;
}

/**
 * The ids of the journal's keys: DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_OLD_KEYS from the
 * environment, else (for npm start) the key in DATA_DIR/secrets.json.
 */
function keyIdsFrom(env: NodeJS.ProcessEnv, dataDir: string, embedded: boolean): string[] | null {
  const idOf = (key: string) => keyIdOf(Buffer.from(key.trim(), 'base64'));
  if (env.DATA_ENCRYPTION_KEY)
    return [env.DATA_ENCRYPTION_KEY, ...(env.DATA_ENCRYPTION_OLD_KEYS ?? '').split(',')]
      .filter((k) => k.trim())
      .map(idOf);
  const file = path.join(dataDir, 'secrets.json');
  if (!embedded || !existsSync(file)) return null;
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { DATA_ENCRYPTION_KEY?: string };
  return stored.DATA_ENCRYPTION_KEY ? [idOf(stored.DATA_ENCRYPTION_KEY)] : null;
}

/** Only what a backup needs: no secret is read, since a backup holds none and needs none. */
function settingsFrom(env: NodeJS.ProcessEnv): Settings {
  const config = loadConfig({
    ...env,
    INTERNAL_SECRET: 'x'.repeat(32),
    DATA_ENCRYPTION_KEY: env.DATA_ENCRYPTION_KEY || Buffer.alloc(32).toString('base64'),
  });
  const dataDir = path.resolve(config.DATA_DIR);
  const backupUrl = config.BACKUP_URL || path.join(dataDir, 'backups');
  return {
    dataDir,
    databaseUrl: config.DATABASE_URL,
    store: backupStoreAt(backupUrl, config),
    keep: config.BACKUP_KEEP,
    keyIds: keyIdsFrom(env, dataDir, !config.DATABASE_URL),
  };
}

const log = createLogger({ name: 'backup', level: 'warn', pretty: process.stderr.isTTY });
const say = (line = ''): void => void process.stdout.write(`${line}\n`);
const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The database URL with this command's application_name, so a restore does not count its own sessions. */
function restoreUrl(url: string): string {
  const named = new URL(url);
  named.searchParams.set('application_name', RESTORE_APPLICATION);
  return named.toString();
}

async function withDatabase<T>(s: Settings, run: (conn: DatabaseConnection) => Promise<T>): Promise<T> {
  const conn = await openDatabase(
    s.databaseUrl ? { url: restoreUrl(s.databaseUrl), poolSize: 2 } : { dataDir: s.dataDir },
  );
  try {
    return await run(conn);
  } finally {
    await conn.close();
  }
}

const KEY_REMINDER =
  'The backup holds no key. Keep the DATA_ENCRYPTION_KEY (for npm start: data/secrets.json) apart from it: without that key the journal cannot be read.';

/** Asks the running `npm start` to take a backup now, and waits for the file. */
async function backupByRunningProcess(s: Settings, pid: number): Promise<BackupFile> {
  const { store } = s;
  const before = new Set((await store.list()).map((f) => f.name));
  const asked = Date.now();
  process.kill(pid, 'SIGUSR2');
  say(`Haven is running (process ${pid}): it is taking the backup…`);
  while (Date.now() - asked < 30 * 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const made = (await store.list()).find((f) => !before.has(f.name) && f.takenAt.getTime() >= asked - 1000);
    if (made) return made;
  }
  throw new Error(`No backup appeared in ${store.location}: see the log of the running Haven.`);
}

async function backup(s: Settings): Promise<void> {
  const pid = s.databaseUrl ? null : runningFrom(s.dataDir);
  const file = pid
    ? await backupByRunningProcess(s, pid)
    : await withDatabase(s, (conn) =>
        createBackups({
          conn,
          store: s.store,
          services: serviceSchemas(),
          keep: s.keep,
          keyId: s.keyIds?.[0] ?? null,
          log,
        }).take(new Date()),
      );
  const where = isBucketUrl(s.store.location)
    ? `${s.store.location.replace(/\/$/, '')}/${file.name}`
    : path.join(s.store.location, file.name);
  say(`Backup written: ${where} (${size(file.size)})`);
  say(`Checksum (sha256): ${file.sha256}`);
  say(KEY_REMINDER);
}

async function list(s: Settings): Promise<void> {
  const files = await s.store.list();
  if (files.length === 0) return say(`No backups in ${s.store.location}.`);
  say(`Backups in ${s.store.location}, oldest first:`);
  for (const f of files)
    say(`  ${f.name}  ${size(f.size).padStart(9)}  ${f.takenAt.toISOString()}  ${f.sha256 ?? 'no checksum'}`);
}

/** FILE as given: a path on this machine, or the name of a backup in BACKUP_URL's folder or bucket. */
function locate(s: Settings, file: string): { store: BackupStore; name: string } {
  const asPath = path.resolve(file);
  if (existsSync(asPath)) return { store: directoryStore(path.dirname(asPath)), name: path.basename(asPath) };
  return { store: s.store, name: path.basename(file) };
}

/** PGlite: with --clean the old folder is renamed aside (nothing is deleted); say where it went. */
async function setAsideEmbedded(s: Settings, clean: boolean): Promise<void> {
  const folder = path.join(s.dataDir, 'pgdata');
  if (!clean || !existsSync(folder) || (await readdir(folder)).length === 0) return;
  const aside = `${folder}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(folder, aside);
  say(`The database that was there is kept in ${aside} (delete it once the restore is checked).`);
}

async function restore(
  s: Settings,
  file: string | undefined,
  flags: { clean: boolean; otherKey: boolean },
): Promise<void> {
  const { clean } = flags;
  if (!file)
    throw new RestoreRefused('Say which backup: npm run restore FILE (npm run backup -- --list shows them).');
  const { store, name } = locate(s, file);
  if (!takenAtOf(name)) throw new RestoreRefused(`${file} is not a Haven backup (haven-<time>.backup.gz).`);
  const pid = s.databaseUrl ? null : runningFrom(s.dataDir);
  if (pid) throw new RestoreRefused(`Haven is running from ${s.dataDir} (process ${pid}): stop it first.`);
  // Checked (and, from a bucket, fetched) before anything here is touched.
  const input = await store.open(name);
  // Without --clean a folder that holds a journal is refused by the restore itself.
  if (!s.databaseUrl) await setAsideEmbedded(s, clean).catch((err) => (input.destroy(), Promise.reject(err)));
  const summary = await withDatabase(s, (conn) =>
    restoreBackup({
      conn,
      input,
      services: serviceSchemas(),
      clean,
      keyIds: s.keyIds ?? undefined,
      otherKey: flags.otherKey,
      log,
    }),
  );
  const rows = Object.values(summary.rows).reduce((a, b) => a + b, 0);
  say(`Restored ${rows} rows from ${name} (taken ${summary.manifest.createdAt}).`);
  const needs = summary.manifest.keyId ? ` (its id: ${summary.manifest.keyId})` : '';
  if (!s.keyIds)
    say(
      s.databaseUrl
        ? `Start Haven with the DATA_ENCRYPTION_KEY the backup was taken with${needs}.`
        : `There is no ${path.join(s.dataDir, 'secrets.json')}: put back the copy you kept${needs} before npm start, or a new key is made and the journal cannot be read.`,
    );
  else say('Start Haven with the same DATA_ENCRYPTION_KEY.');
}

export async function main(argv = process.argv.slice(2), env = process.env): Promise<number> {
  const [command, ...rest] = argv;
  const flags = new Set(rest.filter((a) => a.startsWith('--')));
  const args = rest.filter((a) => !a.startsWith('--'));
  try {
    const s = settingsFrom(env);
    if (command === 'backup' && flags.has('--list')) await list(s);
    else if (command === 'backup') await backup(s);
    else if (command === 'restore')
      await restore(s, args[0], { clean: flags.has('--clean'), otherKey: flags.has('--other-key') });
    else {
      process.stderr.write('Usage: backup [--list] | restore FILE [--clean] [--other-key]\n');
      return 2;
    }
    return 0;
  } catch (err) {
    const known =
      err instanceof RestoreRefused ||
      err instanceof BackupFileError ||
      err instanceof BackupChecksumError ||
      err instanceof ConfigError;
    process.stderr.write(`\n${known ? (err as Error).message : `Failed: ${(err as Error).stack}`}\n`);
    return 1;
  }
}

if (process.argv[1] && /backup(-cli)?\.(ts|js)$/.test(process.argv[1]))
  void main().then((code) => process.exit(code));
