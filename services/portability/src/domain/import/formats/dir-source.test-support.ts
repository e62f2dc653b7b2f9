import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ImportLimitError, type ImportSource } from '../source';

/** The public note exports (CI has `shared/` beside the checkout); never copied into the project. */
export const CORPUS = path.resolve(
  import.meta.dirname,
  '../../../../../..',
  '..',
  'shared',
  'corpora',
  'notes',
);

/** One original file of a vault as `files.json` lists it. */
export interface ListedFile {
  file: string;
  bytes: number | null;
  mtime: number | null;
  note: boolean;
  absent?: boolean;
}

/** The files.json listing of a vault (every original file, notes and not). */
export function listing(vault: string): ListedFile[] {
  const all = JSON.parse(readFileSync(path.join(CORPUS, 'files.json'), 'utf8')) as Record<
    string,
    ListedFile[]
  >;
  return all[vault] ?? [];
}

/**
 * An ImportSource over a corpus vault as if it were zipped under `prefix`: every file the original
 * had (so readers meet the images and settings too), read from disk. Files that are not notes are
 * not on disk: reading one throws, which proves readers never read them.
 */
export function dirSource(vault: string, prefix = ''): ImportSource & { reads: string[] } {
  const files = listing(vault);
  const reads: string[] = [];
  const open = (name: string, max: number) => {
    const file = path.join(CORPUS, vault, name.slice(prefix.length));
    if (!existsSync(file)) throw new Error(`Read of ${name}, which is not a note`);
    reads.push(name);
    const buf = readFileSync(file);
    if (buf.length > max) throw new ImportLimitError(`${name} is larger than ${max} bytes`);
    return buf;
  };
  return {
    reads,
    entries: files.map((f) => ({
      name: prefix + f.file,
      size: f.bytes ?? 0,
      time: new Date((f.mtime ?? 1_700_000_000) * 1000),
    })),
    read: async (name, max) => open(name, max),
    stream: (name, max) => Readable.from([open(name, max)]),
  };
}
