import { MONTHS } from '@haven/contracts/english-dates';
import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, ImportSource, ReadOptions, SourceEntry } from '../source';
import { inTimeZone } from './dates';
import { isBlank, unescapeDayOne } from './dayone-escapes';
import { extensionOf, hiddenReason, notANote, relativeName, topFolder } from './entries';
import { jsonItems } from './json-items';
import { noteItems } from './note';
import { resolveDate } from './note-date';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import { failed, skipped, walkEntries, type ItemBody } from './walk';

/*
 * Day One writes an entry's text as Markdown with every punctuation mark of the user's text
 * escaped (`I love this state\!`, `a\/b`, even inside code), its own Markdown (headings, lists,
 * checklists, quotes, emphasis) unescaped, and each photo or file as a line of its own
 * (`![](dayone-moment://<id>)`, `![](dayone-moment:/pdfAttachment/<id>)`). Its first line is the
 * entry's title in the app. Every scan below is linear in the text: entries are untrusted.
 */

// Undone in dayone-escapes.ts; given here beside the other steps of reading an entry's text.
export { unescapeDayOne };

interface DayOneEntry {
  text?: unknown;
  creationDate?: unknown;
  timeZone?: unknown;
  tags?: unknown;
  location?: unknown;
}

/** Titles are kept to this length (note.ts keeps at most 1000 characters of a title). */
const MAX_TITLE = 1000;

// An embed of Day One media. Bounded repeats: `[^)\s]*` would read to the end of the line from
// every `![` of a line holding many of them.
const MOMENT = /!\[[^\]\n]{0,100}\]\(dayone-moment:([^)\s]{0,200})\)/g;

/** What an embed is, from what follows `dayone-moment:` (`//<id>` is a photo). */
function mediaKind(target: string): string {
  if (target.startsWith('//')) return 'photo';
  const kind = target.split('/')[1]?.toLowerCase();
  if (kind === 'pdfattachment') return 'PDF';
  if (kind === 'audio') return 'audio recording';
  if (kind === 'video') return 'video';
  if (kind === 'sketch') return 'sketch';
  return 'attachment';
}

/**
 * The text without its media embeds, and the kinds of the media it embedded in order. A line left
 * blank by the removal goes, and so does a blank line after one when the line before is blank
 * too, so that `A\n\n<photo>\n\nB` becomes `A\n\nB`; the user's own blank lines stay.
 */
export function withoutMedia(text: string): { text: string; media: string[] } {
  const media: string[] = [];
  const kept: string[] = [];
  let dropping = false;
  for (const line of text.split('\n')) {
    const left = line.includes('dayone-moment:')
      ? line.replace(MOMENT, (_, target: string) => {
          media.push(mediaKind(target));
          return '';
        })
      : line;
    if (left !== line && !left.trim()) {
      dropping = true;
      continue;
    }
    if (!left.trim() && dropping && (kept.length === 0 || !kept[kept.length - 1]!.trim())) continue;
    if (left.trim()) dropping = false;
    kept.push(left);
  }
  return { text: kept.join('\n'), media };
}

/** `line` without the runs of `_` that open or close emphasis (at a word's edge), by scanning. */
function withoutUnderscores(line: string): string {
  const word = /[\p{L}\p{N}]/u;
  let out = '';
  for (let i = 0; i < line.length;) {
    if (line[i] !== '_') {
      out += line[i++];
      continue;
    }
    let end = i;
    while (line[end] === '_') end++;
    const inWord = i > 0 && word.test(line[i - 1]!) && end < line.length && word.test(line[end]!);
    if (inWord) out += line.slice(i, end);
    i = end;
  }
  return out;
}

// What starts a line but is no part of its words: a quote's `>`, a list item's marker, a checkbox.
const LINE_MARKER = /^(?:>|[-+*](?=\s)|\d{1,9}[.)](?=\s)|\[[ xX]\](?=\s))\s*/;

/**
 * The title Day One shows for an entry: its first line the user wrote, as words (no heading,
 * list or quote marker, no emphasis, links as their text), or null.
 */
export function entryTitle(text: string): string | null {
  const first = text.split('\n', 50).find((l) => l.trim());
  // A title is at most 1000 characters: the rest of a longer line is not looked at.
  let line = (first ?? '').trim().slice(0, 2 * MAX_TITLE);
  if (!line) return null;
  let level = 0;
  while (level < 6 && line[level] === '#') level++;
  if (level > 0 && isBlank(line[level])) {
    let end = line.length;
    while (end > level && line[end - 1] === '#') end--;
    line = (end < line.length && isBlank(line[end - 1]) ? line.slice(level, end) : line.slice(level)).trim();
  }
  for (let n = 0; n < 4; n++) {
    const marker = LINE_MARKER.exec(line);
    if (!marker || !marker[0]) break;
    line = line.slice(marker[0].length);
  }
  const words = withoutUnderscores(
    line
      .replace(/!?\[([^\]\n]{0,300})\]\([^)\n]{0,500}\)/g, '$1')
      .replace(/^\\(?=[#>+\-*=_`~<])/, '')
      .replaceAll('*', ''),
  )
    .replace(/\s+/g, ' ')
    .trim();
  return words ? words.slice(0, MAX_TITLE) : null;
}

/** The place an entry was written at (its town, else its place, region or country), or null. */
function placeOf(location: unknown): string | null {
  if (typeof location !== 'object' || location === null) return null;
  const fields = location as Record<string, unknown>;
  for (const key of ['localityName', 'placeName', 'administrativeArea', 'country']) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim()) return value.replace(/\s+/g, ' ').trim().slice(0, 100);
  }
  return null;
}

const plural = (kind: string, n: number) => (n === 1 ? kind : kind === 'sketch' ? 'sketches' : `${kind}s`);

/** `3 photos, 1 PDF`: the media of an entry, counted by kind. */
function countedMedia(media: string[]): string {
  const counts = new Map<string, number>();
  for (const kind of media) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${plural(kind, n)}`).join(', ');
}

/** The title of an entry of media only: `Photo, 12 March 2019, Berlin`. */
function mediaTitle(media: string[], localDate: string, location: unknown): string {
  const kinds = new Set(media);
  const kind = kinds.size > 1 ? 'attachment' : media[0]!;
  const named = plural(kind, media.length);
  const what = named[0]!.toUpperCase() + named.slice(1);
  const [y, m, d] = localDate.split('-').map(Number);
  const place = placeOf(location);
  return [what, `${d} ${MONTHS[m! - 1]} ${y}`, ...(place ? [place] : [])].join(', ');
}

/**
 * One journal entry: its text as the user wrote it (media embeds out, escapes undone), its first
 * line as its title, its instant, its day in the zone it was written in, its tags. The media it
 * held are added to `media`, for the journal's one line of what was not imported. An entry of
 * media only is titled by its date and place.
 */
function entryItems(value: unknown, n: number, file: SourceEntry, now: Date, media: string[]): ItemBody[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return failed(`Entry ${n}: not an entry`);
  const entry = value as DayOneEntry;
  if (entry.text !== undefined && typeof entry.text !== 'string')
    return failed(`Entry ${n}: text is not text`);
  const { text: kept, media: embedded } = withoutMedia((entry.text ?? '').replace(/\r\n?/g, '\n'));
  for (const reference of embedded) media.push(reference);
  const text = unescapeDayOne(kept);
  if (!text.trim() && embedded.length === 0)
    return skipped(`Entry ${n}: empty (photos and other media are not imported)`);
  const created = typeof entry.creationDate === 'string' ? new Date(entry.creationDate) : null;
  const zone = typeof entry.timeZone === 'string' ? entry.timeZone : undefined;
  const date = resolveDate({ created: created && inTimeZone(created, zone), zipTime: file.time, now });
  const tags = finalTags(metaTags(entry.tags), textTags(text, { indentedCode: true }));
  const note = { format: 'markdown', date, tags, category: 'personal' } as const;
  if (text.trim()) {
    // The title is the text's own first line: given as none, noteItems adds no heading for it.
    const title = entryTitle(text);
    return noteItems({ ...note, title: null, body: text }).map((item) =>
      item.kind === 'thought' ? { ...item, thought: { ...item.thought, title } } : item,
    );
  }
  const title = mediaTitle(embedded, date.localDate, entry.location);
  return noteItems({ ...note, title, body: '', titleIsContent: true });
}

/** A journal file's entries, streamed; each entry's items, numbered by entry. */
async function* journal(source: ImportSource, file: SourceEntry, options: ReadOptions) {
  let n = 0;
  /** The media of every entry, listed once at the end: the entries themselves are imported. */
  const media: string[] = [];
  let withMedia = 0;
  for await (const item of jsonItems(source.stream(file.name, IMPORT_LIMITS.dataFileBytes), 'entries')) {
    if ('error' in item) {
      yield* failed(item.error, item.line);
      return;
    }
    n++;
    const before = media.length;
    for (const body of entryItems(item.value, n, file, options.now, media))
      yield body.kind === 'problem' ? { ...body, line: item.line } : body;
    if (media.length > before) withMedia++;
  }
  if (n === 0) yield* skipped('The journal has no entries');
  else if (media.length > 0)
    yield* skipped(
      `Attachments not imported: ${countedMedia(media)} in ${withMedia} ${withMedia === 1 ? 'entry' : 'entries'} (their text is imported)`,
    );
}

/**
 * A Day One JSON export: a `<Journal>.json` per journal at the zip's root, holding `entries`
 * (text, creationDate, timeZone, tags, location, starred…), with media in `photos/`, `pdfs/` and
 * so on, which are not imported.
 */
export const dayOneReader: FormatReader = {
  format: 'dayone',
  read(source, options) {
    const top = topFolder(source.entries);
    return walkEntries(source, options, (entry) => {
      const rel = relativeName(entry.name, top);
      if (!hiddenReason(rel) && !rel.includes('/') && extensionOf(rel) === 'json')
        return journal(source, entry, options);
      return skipped(notANote(rel));
    });
  },
};
