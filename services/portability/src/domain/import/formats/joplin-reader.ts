import { IMPORT_LIMITS } from '@haven/contracts/portability';
import {
  ImportLimitError,
  type FormatReader,
  type ImportSource,
  type ReadOptions,
  type SourceEntry,
} from '../source';
import { dateFromFileName, parseDateValue } from './dates';
import {
  baseName,
  extensionOf,
  hiddenReason,
  kindOf,
  noteKind,
  notANote,
  relativeName,
  stem,
  topFolder,
} from './entries';
import { normaliseText } from './front-matter';
import { htmlToMarkdown } from './html-markdown';
import { JOPLIN_ID, JOPLIN_TAG_BYTES, JOPLIN_TYPES, joplinTagJoin, parseJoplinItem } from './joplin-raw';
import { markdownNote } from './markdown-note';
import { noteItems } from './note';
import { resolveDate } from './note-date';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import { skipped, walkEntries, type ItemBody, tooLarge } from './walk';

/** A RAW item of the export (`<id>.md` outside `resources/`), by its name relative to the top folder. */
const isRawItem = (rel: string) =>
  !rel.startsWith('resources/') && !hiddenReason(rel) && JOPLIN_ID.test(baseName(rel));

/**
 * The tags of every RAW note, by note id: a first pass over the small RAW items (tags and links
 * are a few hundred bytes; notes are read again in the second), so that a note's tags are known
 * whatever the order of the export. Quarantined entries are not read; an entry that cannot be read
 * is left to the second pass, which reports it. Only tag titles and ids are held.
 */
async function rawTags(source: ImportSource, options: ReadOptions, top: string) {
  const join = joplinTagJoin();
  for (const [index, entry] of source.entries.entries()) {
    // The sandbox's watchdog hears of this pass as of a skip: work that yields no item yet.
    options.onSkip?.();
    if (entry.size > JOPLIN_TAG_BYTES || options.quarantined?.has(index)) continue;
    if (!isRawItem(relativeName(entry.name, top))) continue;
    let raw: Buffer;
    try {
      raw = await source.read(entry.name, IMPORT_LIMITS.fileBytes);
    } catch (err) {
      if (err instanceof ImportLimitError) throw err;
      continue;
    }
    const item = parseJoplinItem(normaliseText(raw.toString('utf8')));
    if (item) join.add(item);
  }
  return join.tagsByNote();
}

/** One RAW note (or the reason a RAW item of another type is not one), with its tags by note id. */
function rawNote(
  raw: Buffer,
  entry: SourceEntry,
  now: Date,
  tagsByNote: ReadonlyMap<string, string[]>,
): ItemBody[] | null {
  const item = parseJoplinItem(normaliseText(raw.toString('utf8')));
  if (!item) return null;
  if (item.type !== 1)
    return skipped(`Not a note (Joplin item: ${JOPLIN_TYPES[item.type] ?? `type ${item.type}`})`);
  const { meta } = item;
  // markup_language 2 is a note written in HTML.
  const body = meta.markup_language === '2' ? htmlToMarkdown(item.body) : item.body;
  const date = resolveDate({
    created: parseDateValue(meta.user_created_time) ?? parseDateValue(meta.created_time),
    updated: parseDateValue(meta.user_updated_time) ?? parseDateValue(meta.updated_time),
    zipTime: entry.time,
    now,
  });
  return noteItems({
    title: item.title || null,
    body,
    format: 'markdown',
    date,
    // Its tags (type 5 and 6 items, joined in a first pass), then its own #tags.
    tags: finalTags(metaTags(tagsByNote.get(meta.id!) ?? []), textTags(body, { indentedCode: true })),
    category: 'personal',
    titleIsContent: true,
  });
}

/**
 * A Joplin export: RAW items (`<id>.md` with a metadata block, attachments in `resources/`) and
 * Markdown notes with front matter (`created`, `updated`, `tags`, …), read as any Markdown note.
 * A JEX export is a tar of RAW items, uploaded as it is (see tar-source.ts) or unpacked and zipped;
 * a `.jex` inside a zip is not opened (archives are not read inside archives) and is reported.
 */
export const joplinReader: FormatReader = {
  format: 'joplin',
  async *read(source, options) {
    const top = topFolder(source.entries);
    const tagsByNote = await rawTags(source, options, top);
    yield* walkEntries(source, options, async (entry) => {
      const rel = relativeName(entry.name, top);
      const hidden = hiddenReason(rel);
      const kind = noteKind(rel);
      if (rel.startsWith('resources/')) return skipped(`Not a note (attachment, ${kindOf(rel)})`);
      if (extensionOf(rel) === 'jex' && !hidden)
        return skipped('A Joplin JEX archive inside a zip is not opened: upload the .jex on its own');
      if (hidden || !kind) return skipped(hidden ?? notANote(rel));
      if (entry.size > IMPORT_LIMITS.fileBytes) return tooLarge();
      const raw = await source.read(entry.name, IMPORT_LIMITS.fileBytes);
      if (JOPLIN_ID.test(baseName(rel))) {
        const items = rawNote(raw, entry, options.now, tagsByNote);
        if (items) return items;
      }
      return markdownNote(raw, entry, kind, {
        now: options.now,
        fallbackTitle: stem(rel),
        fileDate: dateFromFileName(baseName(rel)),
        indentedCode: true,
      });
    });
  },
};
