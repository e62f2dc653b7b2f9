import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { IMPORT_LIMITS, inMegabytes } from '@haven/contracts/portability';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import type { ImportSource, ReadOptions, SourceEntry } from '../source';
import { parseDateValue, type NoteDate } from './dates';
import { normaliseText } from './front-matter';
import { noteItems } from './note';
import { resolveDate } from './note-date';
import { failed, skipped, tooLarge, type ItemBody } from './walk';

/*
 * jrnl's plain journal (its `journal.txt`, a `*.journal` file, `jrnl --format txt`, and each
 * `YYYY/MM/DD.txt` of a folder journal): entries one after another, each starting on a line
 * `[2024-01-31 09:00] Title *` (a date in brackets, a space, the title, ` *` when starred) and
 * going on until the next such line. Every scan here is linear in the text: journals are untrusted.
 */

/** Longest bracketed stamp looked at: `[2024-01-31 09:00:00 AM]` and its cousins are far shorter. */
const MAX_STAMP = 40;

// The time part of jrnl's usual time formats: `%H:%M` (its old default), `%I:%M:%S %p` (`%F %r`,
// its default since 2.x, as `09:00:00 AM`).
const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp])\.?[Mm]\.?)?`;
const YEAR_FIRST = new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]${TIME})?$`);
const TIME_ONLY = new RegExp(`^${TIME}$`);
// What a stamp meant as a date starts with; one that does but is no date is a malformed entry.
const DATE_LIKE = /^(?:\d{4}-\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})/;
// jrnl's tags: `@word` (its own rule, `(?<!\S)[@][-+*#/\w]+`); `#tags` are read as everywhere else.
const AT_TAG = /(?<!\S)@([\p{L}\p{N}_\-+*#/]+)/gu;

const pad = (n: number) => String(n).padStart(2, '0');

/** A stamp's wall time read in the import's usual way (no zone: as written, on its own day), or null. */
function wallTime(y: string, mo: string, d: string, time: string[]): NoteDate | null {
  const [h, mi, s, half] = time;
  if (h === undefined) return parseDateValue(`${y}-${pad(+mo)}-${pad(+d)}`);
  let hour = Number(h);
  if (half) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
  }
  return parseDateValue(`${y}-${pad(+mo)}-${pad(+d)} ${pad(hour)}:${mi}:${s ?? '00'}`);
}

/**
 * The date of a bracketed stamp: jrnl's own formats (year first, 24-hour or AM/PM, seconds or
 * not), a bare time in a folder journal's day file (`day`, from its path, as jrnl reads it), else
 * any form dates are read in elsewhere (`31.01.2024 09:00` day first). Null when it is none.
 */
export function stampDate(stamp: string, day: string | null = null): NoteDate | null {
  const full = YEAR_FIRST.exec(stamp);
  const time = day ? TIME_ONLY.exec(stamp) : null;
  let date: NoteDate | null;
  if (full) date = wallTime(full[1]!, full[2]!, full[3]!, full.slice(4));
  else if (time) date = wallTime(...(day!.split('-') as [string, string, string]), time.slice(1));
  // A bare number (a footnote `[1]`, an epoch) is not a date here.
  else date = /^\d*$/.test(stamp) ? null : parseDateValue(stamp);
  // In a folder journal the file's day wins over the stamp's, as in jrnl.
  if (date && day && date.localDate !== day) date = { date: day + date.date.slice(10), localDate: day };
  return date;
}

/** What a line is: an entry's first line, one whose stamp is meant as a date but is none, or text. */
type Header =
  { kind: 'entry'; date: NoteDate; title: string; starred: boolean } | { kind: 'bad'; stamp: string } | null;

/**
 * A line `[stamp] Title` starts an entry when its stamp is a date (jrnl wants the space after `]`;
 * a line ending at `]` is taken too, as editors trim trailing spaces). `[1] a footnote` is text.
 */
export function headerOf(line: string, day: string | null = null): Header {
  if (line[0] !== '[') return null;
  const close = line.slice(0, MAX_STAMP + 2).indexOf(']');
  if (close < 2 || (close + 1 < line.length && line[close + 1] !== ' ')) return null;
  const stamp = line.slice(1, close).trim();
  const date = stampDate(stamp, day);
  if (!date) return DATE_LIKE.test(stamp) ? { kind: 'bad', stamp } : null;
  const rest = line.slice(close + 1).trim();
  // jrnl stars an entry whose first line ends with `*`, and takes the stars off the title.
  let end = rest.length;
  if (rest.endsWith('*')) while (end > 0 && (rest[end - 1] === '*' || rest[end - 1] === ' ')) end--;
  return { kind: 'entry', date, title: rest.slice(0, end), starred: end < rest.length };
}

/** The tags of an entry: its `@tags` (jrnl's), then `#tags`, then the tags its export listed. */
export function jrnlTags(text: string, listed: string[] = []): string[] {
  const at = [...text.matchAll(AT_TAG)].map((m) => m[1]!);
  return finalTags(metaTags(at), textTags(text, { indentedCode: false }), listed);
}

/**
 * The thoughts of one entry: its title (jrnl's first line, typed by the user: a title alone is an
 * entry) above its body, as text, dated by its stamp. Stars are dropped: thoughts have none.
 */
export function entryNote(
  label: string,
  entry: { title: string; body: string; date: NoteDate; listed?: string[] },
): ItemBody[] {
  const { title, date, listed = [] } = entry;
  const text = normaliseText(entry.body);
  if (!title.trim() && !text.trim()) return skipped(`${label}: empty`);
  return noteItems({
    title: title || null,
    body: text,
    format: 'text',
    date: { ...date, source: 'metadata' },
    tags: jrnlTags(`${title}\n${text}`, listed),
    category: 'personal',
    titleIsContent: true,
  });
}

/** A line of a text file and its number; `cut` when it was longer than a note and only its start is kept. */
interface TextLine {
  text: string;
  line: number;
  cut: boolean;
}

/** The lines of a stream, holding at most `max` characters of any one line; `tick` told per chunk. */
async function* textLines(stream: Readable, max: number, tick?: () => void): AsyncGenerator<TextLine> {
  const decoder = new StringDecoder('utf8');
  let held = '';
  let cut = false;
  let line = 0;
  const add = (piece: string) => {
    const room = max - held.length;
    if (piece.length > room) [held, cut] = [held + piece.slice(0, Math.max(room, 0)), true];
    else held += piece;
  };
  const take = (): TextLine => {
    const out = { text: held.endsWith('\r') ? held.slice(0, -1) : held, line: ++line, cut };
    [held, cut] = ['', false];
    return out;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      tick?.();
      let text = decoder.write(chunk);
      if (line === 0 && held === '') text = text.replace(/^\uFEFF/, '');
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; start = nl + 1, nl = text.indexOf('\n', start)) {
        add(text.slice(start, nl));
        yield take();
      }
      add(text.slice(start));
    }
    add(decoder.end());
    if (held || cut) yield take();
  } finally {
    stream.destroy();
  }
}

/** An entry being read: from its first line, its text's lines until the next entry's. */
interface Pending {
  n: number;
  line: number;
  header: Exclude<Header, null> | null;
  lines: string[];
  size: number;
  tooLarge: boolean;
}

const noteLimit = `larger than ${inMegabytes(IMPORT_LIMITS.fileBytes)}, the limit of one note`;

/** The items of an entry once all its lines are read. */
function entryItems(entry: Pending): ItemBody[] {
  const { header, n, line } = entry;
  const at = (items: ItemBody[]) =>
    items.map((item) => (item.kind === 'problem' ? { ...item, line: item.line ?? line } : item));
  if (header?.kind === 'bad')
    return failed(`Entry ${n}: "[${header.stamp}]" is not a date, so the entry was not imported`, line);
  if (entry.tooLarge) return failed(`Entry ${n}: ${noteLimit}; it was not imported`, line);
  if (header?.kind !== 'entry') return [];
  return at(
    entryNote(`Entry ${n}`, { title: header.title, body: entry.lines.join('\n'), date: header.date }),
  );
}

/**
 * The text before a journal's first entry (on the lines before `firstEntry`). With entries after
 * it, jrnl never shows it: it is reported, not imported. A file with no entry at all
 * (`firstEntry` null) was not written by jrnl, or not yet: it is one note, titled by its first
 * line, dated by its folder journal's day, else the zip's time.
 */
function preambleItems(
  pre: Pending,
  firstEntry: number | null,
  file: SourceEntry,
  day: string | null,
  now: Date,
): ItemBody[] {
  const text = pre.lines.join('\n');
  const blank = !pre.tooLarge && !text.trim();
  if (firstEntry !== null) {
    const lines = firstEntry > 2 ? `Lines 1–${firstEntry - 1}` : 'Line 1';
    return blank
      ? []
      : failed(
          `${lines}: text before the first entry (entries start with a date in brackets, [2024-01-31 09:00]); jrnl does not read it either, so it was not imported`,
          1,
        );
  }
  if (pre.tooLarge) return tooLarge();
  if (blank) return skipped('The journal is empty');
  const date = resolveDate({ fileName: day ? parseDateValue(day) : null, zipTime: file.time, now });
  return noteItems({
    title: /^\s*([^\n]*)/.exec(text)![1]!.trim(),
    body: text,
    format: 'text',
    date,
    tags: jrnlTags(text),
    category: 'personal',
    titleIsContent: true,
  });
}

/**
 * The entries of a plain journal file, streamed (a journal may be far bigger than one note); an
 * entry over the size of a note fails alone, its text never held. `day` is the folder journal's
 * day of the file (`2024/01/31.txt`), or null.
 */
export async function* plainJournal(
  source: ImportSource,
  file: SourceEntry,
  options: ReadOptions,
  day: string | null,
): AsyncGenerator<ItemBody> {
  const max = IMPORT_LIMITS.fileBytes;
  const pre: Pending = { n: 0, line: 1, header: null, lines: [], size: 0, tooLarge: false };
  let current = pre;
  const stream = source.stream(file.name, IMPORT_LIMITS.dataFileBytes);
  for await (const { text, line, cut } of textLines(stream, max, options.onSkip)) {
    const header = headerOf(text, day);
    if (header) {
      if (current === pre) yield* preambleItems(pre, line, file, day, options.now);
      else yield* entryItems(current);
      current = { n: current.n + 1, line, header, lines: [], size: text.length, tooLarge: cut };
      continue;
    }
    if (current.tooLarge) continue;
    current.size += text.length + 1;
    if (cut || current.size > max) [current.tooLarge, current.lines] = [true, []];
    else current.lines.push(text);
  }
  if (current === pre) yield* preambleItems(pre, null, file, day, options.now);
  else yield* entryItems(current);
}
