import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, ImportSource, ReadOptions, SourceEntry } from '../source';
import { parseDateValue } from './dates';
import { extensionOf, hiddenReason, notANote, relativeName, topFolder } from './entries';
import { enexNotes, type EnexNote, type EnexTask } from './enex';
import { enmlToMarkdown, type EnmlTask } from './enml-markdown';
import { noteItems } from './note';
import { resolveDate } from './note-date';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import { failed, skipped, walkEntries, type ItemBody } from './walk';

/** An Evernote date-time (`20220528T215959Z`), as text; null for anything else. */
function dueText(value: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})\d{2}Z$/.exec(value);
  if (!m) return null;
  const [, year, month, day, hour, minute] = m;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:00Z`);
  return Number.isNaN(date.getTime()) ? null : `${year}-${month}-${day} ${hour}:${minute} UTC`;
}

/**
 * A note's tasks in the order Evernote shows them (by sort weight, compared as strings), each with
 * its state and due date. Evernote writes a due date even when there is none (`2757600913T000000Z`,
 * not a date): it is left out.
 */
function tasksOf(tasks: readonly EnexTask[]): EnmlTask[] {
  return [...tasks]
    .sort((a, b) => (a.sortWeight < b.sortWeight ? -1 : a.sortWeight > b.sortWeight ? 1 : 0))
    .map((task) => {
      const due = dueText(task.dueDate);
      return {
        title: task.title,
        done: task.taskStatus === 'completed',
        ...(due ? { due } : {}),
        ...(task.taskGroupNoteLevelID ? { group: task.taskGroupNoteLevelID } : {}),
      };
    });
}

/** One note's thoughts, or why it has none. */
function noteOf(note: EnexNote, n: number, file: SourceEntry, now: Date): ItemBody[] {
  if (note.error) return failed(`Note ${n}: ${note.error.message}`, note.error.line);
  const body = enmlToMarkdown(note.content, tasksOf(note.tasks));
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
