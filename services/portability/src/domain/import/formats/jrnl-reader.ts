import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, ImportSource, ReadOptions, SourceEntry } from '../source';
import { parseDateValue } from './dates';
import { baseName, extensionOf, hiddenReason, notANote, noteKind, relativeName, topFolder } from './entries';
import { isHtmlPage } from './html-note';
import { jsonItems } from './json-items';
import { entryNote, plainJournal, stampDate } from './jrnl-text';
import { failed, skipped, walkEntries, type ItemBody } from './walk';

// A day file of a folder journal: `2024/01/31.txt`, under any folder.
const FOLDER_DAY = /(?:^|\/)(\d{4})\/(\d{2})\/(\d{2})\.txt$/;

/**
 * A name only jrnl gives: a `*.journal` file (jrnl takes any name for its journal; `.journal` is
 * what its documentation and users give it), a `.txt` or `.json` whose name says `jrnl`
 * (`jrnl.txt`, `jrnl-export.json`: jrnl's JSON export has no name of its own, and any other JSON at
 * the root is a Day One journal), `journal.txt` (jrnl's default file) or a folder journal's
 * `YYYY/MM/DD.txt`.
 */
export function isJrnlName(rel: string): boolean {
  const ext = extensionOf(rel);
  const base = baseName(rel).toLowerCase();
  return (
    ext === 'journal' ||
    ((ext === 'txt' || ext === 'json') && base.includes('jrnl')) ||
    base === 'journal.txt' ||
    FOLDER_DAY.test(rel)
  );
}

/**
 * A jrnl journal, from its entry names: at least half of its notes are named as jrnl names files
 * (`*.journal` counted as notes), and the others are `.txt` (a stray `README.txt`, read as a
 * journal without entries: one note). A folder of notes that holds a `journal.txt` beside its
 * Markdown notes or web pages, or beside more text notes than journals, stays a folder of notes.
 * `visible` are the names inside the top folder, hidden ones left out.
 */
export function isJrnlExport(visible: readonly string[]): boolean {
  const notes = visible.filter((n) => isJrnlName(n) || noteKind(n) !== null || isHtmlPage(n));
  const journals = notes.filter(isJrnlName).length;
  return (
    journals > 0 &&
    journals * 2 >= notes.length &&
    notes.every((n) => isJrnlName(n) || extensionOf(n) === 'txt')
  );
}

/** The day of a folder journal's day file (`2024/01/31.txt`) when it is a real day, else null. */
function folderDay(rel: string): string | null {
  const m = FOLDER_DAY.exec(rel);
  return m ? (parseDateValue(`${m[1]}-${m[2]}-${m[3]}`)?.localDate ?? null) : null;
}

interface JsonEntry {
  title?: unknown;
  body?: unknown;
  date?: unknown;
  time?: unknown;
  tags?: unknown;
}

/** One entry of `jrnl --format json`: `{ title, body, date, time, tags, starred }`. */
function jsonEntry(value: unknown, n: number): ItemBody[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return failed(`Entry ${n}: not an entry`);
  const entry = value as JsonEntry;
  for (const key of ['title', 'body'] as const)
    if (entry[key] !== undefined && typeof entry[key] !== 'string')
      return failed(`Entry ${n}: ${key} is not text`);
  if (typeof entry.date !== 'string') return failed(`Entry ${n}: it has no date`);
  const stamp = (typeof entry.time === 'string' ? `${entry.date} ${entry.time}` : entry.date).slice(0, 40);
  const date = stampDate(stamp);
  if (!date) return failed(`Entry ${n}: "${stamp}" is not a date`);
  // jrnl lists the tags with their `@` (or `#`); they are in the text too, with their spelling.
  const listed = Array.isArray(entry.tags)
    ? entry.tags.flatMap((t) => (typeof t === 'string' ? [t.replace(/^[@#]/, '')] : []))
    : [];
  const title = (entry.title as string | undefined) ?? '';
  return entryNote(`Entry ${n}`, { title, body: (entry.body as string | undefined) ?? '', date, listed });
}

/** The entries of a JSON export, streamed. */
async function* jsonJournal(source: ImportSource, file: SourceEntry) {
  let n = 0;
  for await (const item of jsonItems(source.stream(file.name, IMPORT_LIMITS.dataFileBytes), 'entries')) {
    if ('error' in item) {
      yield* failed(item.error, item.line);
      return;
    }
    n++;
    for (const body of jsonEntry(item.value, n))
      yield body.kind === 'problem' ? { ...body, line: item.line } : body;
  }
  if (n === 0) yield* skipped('The export has no entries');
}

/**
 * jrnl (jrnl.sh), the command-line journal: its plain journal files (`.txt`, `.journal`, a folder
 * journal's `YYYY/MM/DD.txt`) and its JSON export, each entry one thought at its date and time as
 * written (jrnl writes no zone), `@tags` and `#tags` as tags; anything else is skipped.
 */
export const jrnlReader: FormatReader = {
  format: 'jrnl',
  read(source: ImportSource, options: ReadOptions) {
    const top = topFolder(source.entries);
    return walkEntries(source, options, (entry) => {
      const rel = relativeName(entry.name, top);
      const hidden = hiddenReason(rel);
      if (hidden) return skipped(hidden);
      const ext = extensionOf(rel);
      if (ext === 'json') return jsonJournal(source, entry);
      if (ext === 'txt' || ext === 'journal') return plainJournal(source, entry, options, folderDay(rel));
      return skipped(notANote(rel));
    });
  },
};
