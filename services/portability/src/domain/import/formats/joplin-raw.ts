/**
 * Joplin's RAW export: one `<32-hex id>.md` per item. A note is its title line, a blank line, its
 * body, then a block of `key: value` lines (id, parent_id, created_time, …, type_) that is
 * metadata, not text. Items of other types (notebooks, tags, resources) share the layout.
 */

/** A parsed RAW item: text before the metadata block, and the metadata. */
export interface JoplinItem {
  title: string;
  body: string;
  meta: Record<string, string>;
  type: number;
}

/** The names of RAW items (`8436cd9c58824ca58ed146d7bd519dfd.md`). */
export const JOPLIN_ID = /^[0-9a-f]{32}\.md$/;

const META_LINE = /^([a-z_]+):(?: (.*))?$/;

/** What a RAW item of each type other than a note is. */
export const JOPLIN_TYPES: Record<number, string> = {
  2: 'a notebook',
  3: 'a setting',
  4: 'the description of an attachment',
  5: 'a tag',
  6: 'the link of a tag to a note',
  9: 'an alarm',
  13: 'a revision',
  15: 'a migration',
};

/** Trailing newlines, matched from the first that only newlines follow: `/\n+$/` was quadratic. */
const TRAILING_NEWLINES = /(?<!\n)\n+$/;

/** Parses a RAW item, or null when the text ends with no metadata block (`id:` and `type_:`). */
export function parseJoplinItem(text: string): JoplinItem | null {
  const lines = text.replace(TRAILING_NEWLINES, '').split('\n');
  let start = lines.length;
  while (start > 0 && META_LINE.test(lines[start - 1]!)) start--;
  const meta: Record<string, string> = {};
  for (const line of lines.slice(start)) {
    const m = META_LINE.exec(line)!;
    meta[m[1]!] = m[2] ?? '';
  }
  if (meta.id === undefined || meta.type_ === undefined) return null;
  // Notebooks and tags have a title and no body; a note's body follows its title and a blank line.
  const before = lines.slice(0, start).join('\n').replace(TRAILING_NEWLINES, '');
  const newline = before.indexOf('\n');
  const title = (newline < 0 ? before : before.slice(0, newline)).trim();
  const body = newline < 0 ? '' : before.slice(newline + 1).replace(/^\n/, '');
  return { title, body, meta, type: Number(meta.type_) };
}
