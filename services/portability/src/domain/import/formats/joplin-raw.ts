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

/** A tag is a title and ~300 bytes of metadata, a link ~350 bytes: larger items are neither. */
export const JOPLIN_TAG_BYTES = 8 * 1024;

/** Links kept per note: more than a note's 20 tags, for links to tags the export does not hold. */
const MAX_LINKS = 100;

const ITEM_ID = /^[0-9a-f]{32}$/;

/** Case-insensitive order, the same in every locale. */
const byName = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

/**
 * Joplin keeps a note's tags outside it: a tag item (type 5, its title) and one link item per note
 * and tag (type 6, `note_id` and `tag_id`), anywhere in the export, before or after the note.
 * `add` every item (others are ignored), then `tagsByNote` gives each note's tag names, sorted
 * as Joplin lists them. Only ids and titles are held, never a note.
 */
export function joplinTagJoin() {
  const titles = new Map<string, string>();
  const links = new Map<string, string[]>();
  return {
    add(item: JoplinItem): void {
      const { id, note_id: note, tag_id: tag } = item.meta;
      if (item.type === 5 && id && ITEM_ID.test(id) && item.title) titles.set(id, item.title.slice(0, 200));
      if (item.type !== 6 || !note || !tag || !ITEM_ID.test(note) || !ITEM_ID.test(tag)) return;
      const tags = links.get(note);
      if (!tags) links.set(note, [tag]);
      else if (tags.length < MAX_LINKS && !tags.includes(tag)) tags.push(tag);
    },
    tagsByNote(): Map<string, string[]> {
      const byNote = new Map<string, string[]>();
      for (const [note, tags] of links) {
        const names = tags.flatMap((tag) => titles.get(tag) ?? []);
        if (names.length) byNote.set(note, names.sort(byName));
      }
      return byNote;
    },
  };
}
