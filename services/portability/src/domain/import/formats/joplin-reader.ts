import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, SourceEntry } from '../source';
import { dateFromFileName, parseDateValue } from './dates';
import { baseName, hiddenReason, kindOf, noteKind, notANote, relativeName, stem, topFolder } from './entries';
import { normaliseText } from './front-matter';
import { htmlToMarkdown } from './html-markdown';
import { JOPLIN_ID, JOPLIN_TYPES, parseJoplinItem } from './joplin-raw';
import { markdownNote } from './markdown-note';
import { noteItems } from './note';
import { resolveDate } from './note-date';
import { finalTags, textTags } from '@haven/kit/hashtags';
import { skipped, walkEntries, type ItemBody, tooLarge } from './walk';

/** One RAW note (or the reason a RAW item of another type is not one). */
function rawNote(raw: Buffer, entry: SourceEntry, now: Date): ItemBody[] | null {
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
    // RAW tags live in other files (type 5 and 6 items): only the note's own #tags are known here.
    tags: finalTags(textTags(body, { indentedCode: true })),
    category: 'personal',
    titleIsContent: true,
  });
}

/**
 * A Joplin export: RAW items (`<id>.md` with a metadata block, attachments in `resources/`) and
 * Markdown notes with front matter (`created`, `updated`, `tags`, …), read as any Markdown note.
 */
export const joplinReader: FormatReader = {
  format: 'joplin',
  read(source, options) {
    const top = topFolder(source.entries);
    return walkEntries(source, options, async (entry) => {
      const rel = relativeName(entry.name, top);
      const hidden = hiddenReason(rel);
      const kind = noteKind(rel);
      if (rel.startsWith('resources/')) return skipped(`Not a note (attachment, ${kindOf(rel)})`);
      if (hidden || !kind) return skipped(hidden ?? notANote(rel));
      if (entry.size > IMPORT_LIMITS.fileBytes) return tooLarge();
      const raw = await source.read(entry.name, IMPORT_LIMITS.fileBytes);
      if (JOPLIN_ID.test(baseName(rel))) {
        const items = rawNote(raw, entry, options.now);
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
