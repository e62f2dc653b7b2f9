import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, ImportSource, ReadOptions, SourceEntry } from '../source';
import { hiddenReason, notANote, noteKind, relativeName, topFolder } from './entries';
import { normaliseText } from './front-matter';
import { titleHeading } from './headings';
import { jsonItems } from './json-items';
import { noteItems } from './note';
import { createdDate, resolveDate, updatedDate } from './note-date';
import { finalTags, metaTags, textTags } from '@haven/kit/hashtags';
import { failed, skipped, tooLarge, walkEntries, type ItemBody } from './walk';

/**
 * Simplenote's JSON export (`source/notes.json`, in the zip's top folder if it has one), beside a
 * `.txt` copy of each live note and `trash/` for the others.
 */
export const isSimplenoteJson = (name: string) => /^(?:[^/]+\/)?source\/notes\.json$/.test(name);

interface SimplenoteNote {
  content?: unknown;
  tags?: unknown;
  markdown?: unknown;
  deleted?: unknown;
}

/**
 * Simplenote has no title field: a note's first line is its title. In a Markdown note a `# Title`
 * line stays the note's heading; any other first line is taken off the body (the title is put
 * back at the top of the thought, as a heading for Markdown), so it is not there twice.
 */
function titled(text: string, markdown: boolean): { title: string | null; body: string; rest: string } {
  const body = text.replace(/^\s*\n/, '');
  const first = /^[^\n]*/.exec(body)![0];
  const rest = body.slice(first.length);
  const heading = markdown ? titleHeading(first) : null;
  if (heading) return { title: heading, body, rest };
  const title = first.trim() || null;
  return { title, body: markdown && title ? rest : body, rest };
}

/** One note of the JSON export: text or Markdown, first line as title, dates, tags. */
function noteOf(value: unknown, n: number, file: SourceEntry, now: Date): ItemBody[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return failed(`Note ${n}: not a note`);
  const note = value as SimplenoteNote & Record<string, unknown>;
  if (note.content !== undefined && typeof note.content !== 'string')
    return failed(`Note ${n}: content is not text`);
  if (note.deleted === true) return skipped(`Note ${n}: in the Simplenote trash`);
  const text = normaliseText(note.content ?? '');
  if (!text.trim()) return skipped(`Note ${n}: empty`);
  const markdown = note.markdown === true;
  const { title, body, rest } = titled(text, markdown);
  return noteItems({
    title,
    body,
    format: markdown ? 'markdown' : 'text',
    date: resolveDate({ created: createdDate(note), updated: updatedDate(note), zipTime: file.time, now }),
    tags: finalTags(metaTags(note.tags), textTags(rest, { indentedCode: markdown })),
    category: 'personal',
  });
}

/** ` ("First line")` of a note, to name a trashed one; '' when it has none. */
function titleOf(value: unknown): string {
  const content = (value as SimplenoteNote | null)?.content;
  const first = typeof content === 'string' ? /^\s*([^\n]{0,80})/.exec(content)![1]!.trim() : '';
  return first ? ` ("${first}")` : '';
}

/** The JSON export's live notes, streamed; each trashed note is one skipped item. */
async function* notesJson(source: ImportSource, file: SourceEntry, options: ReadOptions) {
  const stream = source.stream(file.name, IMPORT_LIMITS.dataFileBytes);
  let n = 0;
  for await (const item of jsonItems(stream, ['activeNotes', 'trashedNotes'])) {
    if ('error' in item) {
      yield* failed(item.error, item.line);
      return;
    }
    n++;
    const bodies =
      item.list === 'trashedNotes'
        ? skipped(`Note ${n}${titleOf(item.value)}: in the Simplenote trash`)
        : noteOf(item.value, n, file, options.now);
    for (const body of bodies) yield body.kind === 'problem' ? { ...body, line: item.line } : body;
  }
  if (n === 0) yield* skipped('The export has no notes');
}

/** A `.txt` note of an export without its JSON: first line as title, the zip's time as date. */
function textNote(raw: Buffer, entry: SourceEntry, now: Date): ItemBody[] {
  const { title, body, rest } = titled(normaliseText(raw.toString('utf8')), false);
  return noteItems({
    title,
    body,
    format: 'text',
    date: resolveDate({ zipTime: entry.time, now }),
    tags: finalTags(textTags(rest, { indentedCode: false })),
    category: 'personal',
  });
}

/**
 * A Simplenote export: `source/notes.json` (`activeNotes` and `trashedNotes`, each note's
 * `content`, `creationDate`, `lastModified`, `tags`, `markdown`), a `.txt` copy of each live note
 * named by its first line, and `trash/` with the trashed ones. The JSON is read when it is there
 * (it has the dates and tags), else the `.txt` files; the trash is never imported.
 */
export const simplenoteReader: FormatReader = {
  format: 'simplenote',
  read(source, options) {
    const top = topFolder(source.entries);
    const hasJson = source.entries.some((e) => isSimplenoteJson(e.name));
    return walkEntries(source, options, (entry) => {
      const rel = relativeName(entry.name, top);
      if (isSimplenoteJson(entry.name)) return notesJson(source, entry, options);
      const hidden = hiddenReason(rel);
      if (hidden) return skipped(hidden);
      if (rel.startsWith('trash/')) return skipped('In the Simplenote trash');
      if (noteKind(rel) !== 'text' || rel.includes('/')) return skipped(notANote(rel));
      if (hasJson) return skipped('Not a note (the text copy of a note in notes.json)');
      if (entry.size > IMPORT_LIMITS.fileBytes) return tooLarge();
      return source
        .read(entry.name, IMPORT_LIMITS.fileBytes)
        .then((raw) => textNote(raw, entry, options.now));
    });
  },
};
