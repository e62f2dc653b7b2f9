import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, ImportSource, ReadOptions, SourceEntry } from '../source';
import { parseDateValue } from './dates';
import { extensionOf, hiddenReason, notANote, relativeName, topFolder } from './entries';
import { enexNotes, type EnexNote } from './enex';
import { enmlToMarkdown } from './html-markdown';
import { noteItems } from './note';
import { resolveDate } from './note-date';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import { failed, skipped, walkEntries, type ItemBody } from './walk';

/** One note's thoughts, or why it has none. */
function noteOf(note: EnexNote, n: number, file: SourceEntry, now: Date): ItemBody[] {
  if (note.error) return failed(`Note ${n}: ${note.error.message}`, note.error.line);
  const body = enmlToMarkdown(note.content);
  const items = noteItems({
    title: note.title || null,
    body,
    format: 'markdown',
    date: resolveDate({
      created: parseDateValue(note.created),
      updated: parseDateValue(note.updated),
      zipTime: file.time,
      now,
    }),
    tags: finalTags(metaTags(note.tags), textTags(body, { indentedCode: true })),
    category: 'personal',
    titleIsContent: true,
  });
  return items.map((i) =>
    i.kind === 'problem' ? { ...i, reason: `Note ${n}: ${i.reason}`, line: note.line } : i,
  );
}

async function* notebook(source: ImportSource, file: SourceEntry, options: ReadOptions) {
  let n = 0;
  for await (const note of enexNotes(source.stream(file.name, IMPORT_LIMITS.dataFileBytes))) {
    if ('error' in note && typeof note.error === 'string') {
      yield* failed(note.error, note.line);
      return;
    }
    n++;
    yield* noteOf(note as EnexNote, n, file, options.now);
  }
  if (n === 0) yield* skipped('The notebook has no notes');
}

/** Evernote exports: one `.enex` per notebook, every note in it with its attachments inline. */
export const evernoteReader: FormatReader = {
  format: 'evernote',
  read(source, options) {
    const top = topFolder(source.entries);
    return walkEntries(source, options, (entry) => {
      const rel = relativeName(entry.name, top);
      if (!hiddenReason(rel) && extensionOf(rel) === 'enex') return notebook(source, entry, options);
      return skipped(notANote(rel));
    });
  },
};
