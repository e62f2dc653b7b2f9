import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, SourceEntry } from '../source';
import { fromInstant } from './dates';
import { baseName, extensionOf, hiddenReason, notANote, relativeName, stem, topFolder } from './entries';
import { noteItems } from './note';
import { resolveDate } from './note-date';
import { finalTags, textTags } from '@haven/kit/hashtags';
import { failed, skipped, walkEntries, type ItemBody, tooLarge } from './walk';

interface KeepNote {
  title?: unknown;
  textContent?: unknown;
  listContent?: unknown;
  labels?: unknown;
  isTrashed?: unknown;
  createdTimestampUsec?: unknown;
  userEditedTimestampUsec?: unknown;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const fromUsec = (v: unknown) =>
  typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))
    ? fromInstant(new Date(Number(v) / 1000))
    : null;

/** A checklist as a Markdown task list. */
function checklist(items: unknown[]): string {
  return items
    .map((i) => {
      const item = (typeof i === 'object' && i !== null ? i : {}) as { text?: unknown; isChecked?: unknown };
      return `- [${item.isChecked === true ? 'x' : ' '}] ${str(item.text).replace(/\n/g, ' ')}`;
    })
    .join('\n');
}

/** The line of a JSON syntax error, from the position V8 names in its message. */
function jsonErrorLine(text: string, err: Error): number | undefined {
  const at = /position (\d+)/.exec(err.message)?.[1];
  return at === undefined ? undefined : text.slice(0, Number(at)).split('\n').length;
}

/** One Keep note: text (or checklist), title, labels; trashed notes are skipped. */
function keepNote(raw: Buffer, entry: SourceEntry, now: Date): ItemBody[] {
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return failed('The file is not valid JSON', jsonErrorLine(text, err as Error));
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return failed('Not a Keep note', 1);
  const note = json as KeepNote;
  if (note.isTrashed === true) return skipped('In the Keep trash');
  const isList = Array.isArray(note.listContent) && note.listContent.length > 0;
  const body = (isList ? checklist(note.listContent as unknown[]) : str(note.textContent)).replace(
    /\r\n?/g,
    '\n',
  );
  const labels = Array.isArray(note.labels)
    ? note.labels.map((l) => str((l as { name?: unknown } | null)?.name).trim()).filter(Boolean)
    : [];
  return noteItems({
    title: str(note.title) || null,
    body,
    format: isList ? 'markdown' : 'text',
    date: resolveDate({
      created: fromUsec(note.createdTimestampUsec),
      updated: fromUsec(note.userEditedTimestampUsec),
      zipTime: entry.time,
      now,
    }),
    tags: finalTags(labels, textTags(body, { indentedCode: false })),
    category: 'personal',
    titleIsContent: true,
  });
}

const folderOf = (name: string) => name.slice(0, Math.max(0, name.lastIndexOf('/')));

/**
 * The folders of a Takeout that hold Google Keep notes, by their names' shape alone. Takeout names
 * Keep's folder in the account's language (`Keep/`, `Google Notizen/`, `Google Keep/`…), so the
 * folder is known by what Keep writes into it: each note as `<name>.json` with an `.html` twin of
 * the same name, and `Labels.txt` when there are labels. A folder called `Keep` counts as before.
 */
export function keepFolders(entries: readonly SourceEntry[]): Set<string> {
  const folders = new Map<string, { json: Set<string>; html: Set<string>; labels: boolean }>();
  for (const { name } of entries) {
    const base = baseName(name);
    const ext = extensionOf(base);
    // Hidden files count (the reader skips them), macOS metadata does not.
    if (name.startsWith('__MACOSX/') || (ext !== 'json' && ext !== 'html' && base !== 'Labels.txt')) continue;
    const dir = folderOf(name);
    let folder = folders.get(dir);
    if (!folder) folders.set(dir, (folder = { json: new Set(), html: new Set(), labels: false }));
    if (base === 'Labels.txt') folder.labels = true;
    else folder[ext as 'json' | 'html'].add(stem(base));
  }
  const keep = new Set<string>();
  for (const [dir, { json, html, labels }] of folders) {
    let twins = 0;
    for (const s of json) if (html.has(s)) twins++;
    const named = /^(?:[^/]+\/)?(?:Takeout\/)?Keep$/.test(dir);
    // Day One's journals and settings files have no twins; the notes of a trimmed export may lack some.
    if (json.size > 0 && (named || (twins > 0 && (labels || twins * 2 > json.size)))) keep.add(dir);
  }
  return keep;
}

/**
 * Google Keep in a Takeout zip: `Takeout/Keep/<note>.json` per note (the folder's name depends on
 * the account's language, see `keepFolders`), with an `.html` rendering of each (a duplicate,
 * skipped), its attachments beside it, and `Labels.txt` (the label names).
 */
export const keepReader: FormatReader = {
  format: 'keep',
  read(source, options) {
    const top = topFolder(source.entries);
    const folders = keepFolders(source.entries);
    return walkEntries(source, options, async (entry) => {
      const rel = relativeName(entry.name, top);
      const inKeep = folders.has(folderOf(entry.name));
      const ext = extensionOf(rel);
      if (hiddenReason(rel) || !inKeep) return skipped(notANote(rel));
      if (ext === 'html') return skipped('Not a note (the HTML copy of a Keep note)');
      if (baseName(rel) === 'Labels.txt') return skipped('Not a note (the list of Keep labels)');
      if (ext !== 'json') return skipped(notANote(rel));
      if (entry.size > IMPORT_LIMITS.fileBytes) return tooLarge();
      return keepNote(await source.read(entry.name, IMPORT_LIMITS.fileBytes), entry, options.now);
    });
  },
};
