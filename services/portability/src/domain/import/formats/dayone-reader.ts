import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, ImportSource, ReadOptions, SourceEntry } from '../source';
import { inTimeZone } from './dates';
import { extensionOf, hiddenReason, notANote, relativeName, topFolder } from './entries';
import { plainTitleHeading } from './headings';
import { jsonItems } from './json-items';
import { noteItems } from './note';
import { resolveDate } from './note-date';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import { failed, skipped, walkEntries, type ItemBody } from './walk';

interface DayOneEntry {
  text?: unknown;
  creationDate?: unknown;
  timeZone?: unknown;
  tags?: unknown;
}

/** The first line as a title when Day One made it one (`# Title`), else none. */
const headingTitle = (text: string) => plainTitleHeading(text.split('\n', 1)[0] ?? '');

/** One journal entry: Markdown text, its instant, its day in the zone it was written in, its tags. */
function entryItems(value: unknown, n: number, file: SourceEntry, now: Date): ItemBody[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return failed(`Entry ${n}: not an entry`);
  const entry = value as DayOneEntry;
  if (entry.text !== undefined && typeof entry.text !== 'string')
    return failed(`Entry ${n}: text is not text`);
  // Day One escapes Markdown in plain text (`\.`); the text stays as Day One wrote it.
  const text = (entry.text ?? '').replace(/\r\n?/g, '\n');
  if (!text.trim()) return skipped(`Entry ${n}: empty (photos and other media are not imported)`);
  const created = typeof entry.creationDate === 'string' ? new Date(entry.creationDate) : null;
  const zone = typeof entry.timeZone === 'string' ? entry.timeZone : undefined;
  const date = resolveDate({ created: created && inTimeZone(created, zone), zipTime: file.time, now });
  return noteItems({
    title: headingTitle(text),
    body: text,
    format: 'markdown',
    date,
    tags: finalTags(metaTags(entry.tags), textTags(text, { indentedCode: true })),
    category: 'personal',
  });
}

/** A journal file's entries, streamed; each entry's items, numbered by entry. */
async function* journal(source: ImportSource, file: SourceEntry, options: ReadOptions) {
  let n = 0;
  for await (const item of jsonItems(source.stream(file.name, IMPORT_LIMITS.dataFileBytes), 'entries')) {
    if ('error' in item) {
      yield* failed(item.error, item.line);
      return;
    }
    n++;
    for (const body of entryItems(item.value, n, file, options.now))
      yield body.kind === 'problem' ? { ...body, line: item.line } : body;
  }
  if (n === 0) yield* skipped('The journal has no entries');
}

/**
 * A Day One JSON export: a `<Journal>.json` per journal at the zip's root, holding `entries`
 * (text, creationDate, timeZone, tags, starred…), with media in `photos/`, `audios/` and so on.
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
