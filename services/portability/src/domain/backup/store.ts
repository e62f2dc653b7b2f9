/**
 * Where backups are kept, and the adapter for a directory (a local folder, a mounted volume; the
 * other, an S3-compatible bucket, is in s3-store.ts). Each backup is one file, `haven-<time>.backup.gz`, written under a temporary name and renamed once complete, beside
 * a `<file>.sha256` in `sha256sum` format (so `sha256sum -c` checks it by hand too).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface BackupFile {
  name: string;
  size: number;
  /** When the backup was taken (from its name). */
  takenAt: Date;
  /** The checksum recorded when it was written; null when its .sha256 is missing. */
  sha256: string | null;
}

export interface BackupStore {
  /** Where the backups are, for logs and messages. */
  readonly location: string;
  /** Every backup, oldest first. */
  list(): Promise<BackupFile[]>;
  /** Writes a backup: `produce` writes its bytes into the stream it is given (and does not end it). */
  write(name: string, produce: (out: Writable) => Promise<void>): Promise<BackupFile>;
  /** Reads a backup after checking its bytes against its checksum. */
  open(name: string): Promise<Readable>;
  remove(name: string): Promise<void>;
}

const NAME = /^haven-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:-\d{3})?Z)\.backup\.gz$/;

/** The file name of a backup taken at `at`: sorts by time, and names no one. */
export function backupName(at: Date): string {
  return `haven-${at.toISOString().replace(/:/g, '-').replace('.', '-')}.backup.gz`;
}

/** When the backup of this name was taken, or null for a file that is not a backup. */
export function takenAtOf(name: string): Date | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [date, time] = m[1]!.split('T') as [string, string];
  const [h, min, s, ms = '000'] = time.replace('Z', '').split('-');
  return new Date(`${date}T${h}:${min}:${s}.${ms}Z`);
}

/** A backup whose bytes do not match their checksum. */
export class BackupChecksumError extends Error {
  override name = 'BackupChecksumError';
}

/** A pass-through that counts and hashes (sha256) what goes through it. */
export function hasher(): Transform & { digest(): string; size: number } {
  const hash = createHash('sha256');
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      t.size += chunk.length;
      done(null, chunk);
    },
  }) as Transform & { digest(): string; size: number };
  t.size = 0;
  t.digest = () => hash.digest('hex');
  return t;
}

async function sha256Of(file: string): Promise<string> {
  const h = hasher();
  await pipeline(createReadStream(file), h, new PassThrough().resume());
  return h.digest();
}

/** A day: long past any backup's writing, so a `.partial` that old was left by a crash. */
const STALE_PARTIAL_MS = 24 * 3600 * 1000;

async function removeStalePartials(folder: string): Promise<void> {
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.partial')) continue;
    const file = path.join(folder, name);
    const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: Date.now() }));
    if (Date.now() - mtimeMs > STALE_PARTIAL_MS) await rm(file, { force: true });
  }
}

export function directoryStore(dir: string): BackupStore {
  const folder = path.resolve(dir);
  const file = (name: string) => {
    if (!NAME.test(name)) throw new Error(`Not a backup's name: ${name}`);
    return path.join(folder, name);
  };
  const recordedSum = async (name: string) => {
    try {
      const text = await readFile(`${file(name)}.sha256`, 'utf8');
      return /^([0-9a-f]{64}) /.exec(text)?.[1] ?? null;
    } catch {
      return null;
    }
  };

  return {
    location: folder,
    async list() {
      let names: string[];
      try {
        names = await readdir(folder);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const files: BackupFile[] = [];
      for (const name of names.filter((n) => NAME.test(n)).sort()) {
        const { size } = await stat(path.join(folder, name));
        files.push({ name, size, takenAt: takenAtOf(name)!, sha256: await recordedSum(name) });
      }
      return files;
    },
    async write(name, produce) {
      await mkdir(folder, { recursive: true });
      const target = file(name);
      await removeStalePartials(folder);
      // Its own name: a retry on another replica writing the same backup never shares the file.
      const partial = path.join(folder, `.${name}.${randomBytes(4).toString('hex')}.partial`);
      const h = hasher();
      const sink = createWriteStream(partial, { mode: 0o600 });
      const done = pipeline(h, sink);
      try {
        await produce(h);
        h.end();
        await done;
        // On disk before it is renamed into view: a crash leaves a .partial, never half a backup.
        const handle = await open(partial, 'r');
        await handle.sync().finally(() => handle.close());
        const sha256 = h.digest();
        await writeFile(`${target}.sha256`, `${sha256}  ${name}\n`, { mode: 0o600 });
        await rename(partial, target);
        return { name, size: h.size, takenAt: takenAtOf(name)!, sha256 };
      } catch (err) {
        h.destroy();
        await done.catch(() => undefined);
        await rm(partial, { force: true });
        throw err;
      }
    },
    async open(name) {
      const target = file(name);
      const recorded = await recordedSum(name);
      if (recorded && (await sha256Of(target)) !== recorded)
        throw new BackupChecksumError(`${name} does not match its checksum: the file is damaged`);
      return createReadStream(target);
    },
    async remove(name) {
      await rm(file(name), { force: true });
      await rm(`${file(name)}.sha256`, { force: true });
    },
  };
}
