import { IMPORT_LIMITS } from '@haven/contracts/portability';
import type { FormatReader, ImportSource, SourceEntry } from '../source';
import { csvRows } from './csv-rows';
import { baseName, extensionOf, hiddenReason, notANote, relativeName, stem, topFolder } from './entries';
import { metaValue } from './front-matter';
import { markdownNote } from './markdown-note';
import { categoryOf, noteItems } from './note';
import { createdDate, resolveDate, updatedDate } from './note-date';
import { finalTags, metaTags } from '@haven/kit/hashtags';
import { failed, skipped, tooLarge, walkEntries, type ItemBody } from './walk';

/*
 * Notion's "Markdown & CSV" export: a page is `Title <32-hex id>.md` (its sub-pages and images in
 * the folder `Title <id>/` beside it), a database is `Name <id>.csv` (the view's rows) and
 * `Name <id>_all.csv` (every row), one row per page with its properties as columns, and the row
 * pages as `.md` files in the folder `Name <id>/`. A page's `.md` starts with `# Title`, then its
 * properties as `Key: value` lines.
 */

/** A property: its column's name and its value as Notion wrote it. */
type Property = [name: string, value: string];

const ID = / [0-9a-f]{32}$/;

/** The page or database name without its id (`Tasks`), or null when it has no id. */
function nameOf(file: string): string | null {
  const s = stem(file).replace(/_all$/, '');
  return ID.test(s) ? s.slice(0, -33) : null;
}

/** Notion's `.md` pages and `.csv` databases, named with an id: most of what a zip holds if it is Notion's. */
export function isNotionExport(names: readonly string[]): boolean {
  let pages = 0;
  let named = 0;
  for (const name of names) {
    const ext = extensionOf(name);
    if (ext !== 'md' && ext !== 'csv') continue;
    pages++;
    if (nameOf(name) !== null) named++;
  }
  return named * 2 > pages;
}

/** Titles compared as Notion's file names keep them: letters and digits only, any case. */
const titleKey = (title: string) =>
  title
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** The folder of a database's row pages: `Tasks <id>/` for `Tasks <id>.csv` and `…_all.csv`. */
const rowFolder = (csv: string) => csv.slice(0, -'.csv'.length).replace(/_all$/, '') + '/';

const MONTHS = 'january february march april may june july august september october november december';
// Notion's dates: `January 5, 2023`, `January 5, 2023 3:04 PM`, a range `… → …` (its start taken).
const NOTION_DATE = /^([A-Za-z]{3,9}) (\d{1,2}), (\d{4})(?: (\d{1,2}):(\d{2})(?: ?([AP]M))?)?/;

/** A Notion date as an ISO day or wall time the date parser reads; other values unchanged. */
function isoDate(value: string): string {
  const m = NOTION_DATE.exec(value);
  const month = m ? MONTHS.split(' ').findIndex((name) => name.startsWith(m[1]!.toLowerCase())) + 1 : 0;
  if (!m || month === 0 || m[1]!.length < 3) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${m[3]}-${pad(month)}-${pad(Number(m[2]))}`;
  if (m[4] === undefined) return day;
  const hour = m[6] ? (Number(m[4]) % 12) + (m[6] === 'PM' ? 12 : 0) : Number(m[4]);
  return `${day}T${pad(hour)}:${m[5]}:00`;
}

/** Properties as metadata: dates readable, the rest as written. */
const metaOf = (properties: readonly Property[]): Record<string, unknown> =>
  Object.fromEntries(properties.map(([name, value]) => [name, isoDate(value)]));

const TAG_KEYS = ['tags', 'tag', 'keywords', 'labels'];

/** A row's title and its other non-empty properties. */
function rowOf(
  header: readonly string[],
  cells: readonly string[],
): { title: string; properties: Property[] } {
  const properties: Property[] = [];
  for (let i = 1; i < header.length && i < cells.length; i++) {
    const name = header[i]!.trim();
    const value = cells[i]!.trim();
    if (name && value) properties.push([name, value]);
  }
  return { title: (cells[0] ?? '').trim(), properties };
}

/** The database CSV read for each folder of row pages: `_all.csv` when there is one. */
function databases(rels: readonly string[]): Map<string, string> {
  const chosen = new Map<string, string>();
  for (const rel of rels)
    if (extensionOf(rel) === 'csv' && nameOf(rel) !== null) {
      const folder = rowFolder(rel);
      if (!chosen.has(folder) || stem(rel).endsWith('_all')) chosen.set(folder, rel);
    }
  return chosen;
}

/**
 * The properties of the rows that have a page of their own (a `.md` in the database's folder with
 * the row's title), by folder and title: those rows are imported with their page, not twice.
 * Only those rows are kept, so memory follows the pages, not the size of the CSVs.
 */
async function rowsWithPages(
  source: ImportSource,
  top: string,
  chosen: Map<string, string>,
  quarantined: ReadonlySet<string>,
): Promise<Map<string, Property[]>> {
  const pages = new Set<string>();
  for (const { name } of source.entries) {
    const rel = relativeName(name, top);
    if (extensionOf(rel) === 'md' && nameOf(rel) !== null) pages.add(pageKey(rel));
  }
  const folders = new Set([...pages].map((key) => key.slice(0, key.lastIndexOf('/') + 1)));
  const rows = new Map<string, Property[]>();
  for (const [folder, rel] of chosen) {
    if (!folders.has(folder) || quarantined.has(top + rel)) continue;
    let header: string[] | null = null;
    for await (const row of csvRows(source, top + rel)) {
      if ('error' in row) break;
      if (!header) {
        header = row.cells;
        continue;
      }
      const { title, properties } = rowOf(header, row.cells);
      const key = folder + titleKey(title);
      if (pages.has(key) && !rows.has(key)) rows.set(key, properties);
    }
  }
  return rows;
}

/** A row without a page of its own: its title and its properties as `Property: value` lines. */
function rowNote(title: string, properties: Property[], entry: SourceEntry, now: Date): ItemBody[] {
  const meta = metaOf(properties);
  return noteItems({
    title: title || null,
    body: properties.map(([name, value]) => `${name}: ${value}`).join('\n'),
    format: 'markdown',
    date: resolveDate({ created: createdDate(meta), updated: updatedDate(meta), zipTime: entry.time, now }),
    tags: finalTags(metaTags(metaValue(meta, ...TAG_KEYS))),
    category: categoryOf(metaValue(meta, 'category')),
    titleIsContent: true,
  });
}

/** A database CSV: one note per row, but for rows imported with their page. */
async function* database(
  source: ImportSource,
  entry: SourceEntry,
  rel: string,
  merged: Map<string, Property[]>,
  now: Date,
): AsyncGenerator<ItemBody> {
  const folder = rowFolder(rel);
  const withPage = new Set<string>();
  let header: string[] | null = null;
  let given = 0;
  for await (const row of csvRows(source, entry.name)) {
    if ('error' in row) {
      yield* failed(row.error, row.line);
      return;
    }
    if (!header) {
      header = row.cells;
      continue;
    }
    const { title, properties } = rowOf(header, row.cells);
    const key = folder + titleKey(title);
    // The first row of a title is its page's; a second row of the same title has none.
    if (merged.has(key) && !withPage.has(key)) {
      withPage.add(key);
      continue;
    }
    for (const body of rowNote(title, properties, entry, now)) {
      given++;
      yield body.kind === 'problem' ? { ...body, line: row.line } : body;
    }
  }
  if (given === 0)
    yield* skipped(
      withPage.size > 0 ? 'Its rows were imported with their pages' : 'The database has no rows',
    );
}

/** `Key: value` lines read off the top of a page (after its `# Title`), at most this many. */
const MAX_PROPERTY_LINES = 100;
const PROPERTY_LINE = /^([^:\n]{1,100}): (.*)$/;

/**
 * A page's properties: the `Key: value` lines under its heading, and those of its database row
 * that the page does not have, put with them.
 */
function pageProperties(body: string, row: readonly Property[] | undefined) {
  let at = 0;
  const lineAt = (from: number) => {
    const end = body.indexOf('\n', from);
    return end < 0 ? body.slice(from) : body.slice(from, end);
  };
  const next = (from: number) => {
    const end = body.indexOf('\n', from);
    return end < 0 ? body.length : end + 1;
  };
  if (body.startsWith('# ')) at = next(0);
  while (at < body.length && lineAt(at).trim() === '') at = next(at);
  const start = at;
  const found: Property[] = [];
  for (let m; found.length < MAX_PROPERTY_LINES && at < body.length; at = next(at)) {
    if (!(m = PROPERTY_LINE.exec(lineAt(at)))) break;
    found.push([m[1]!.trim(), m[2]!.trim()]);
  }
  const names = new Set(found.map(([name]) => name.toLowerCase()));
  const missing = (row ?? []).filter(([name]) => !names.has(name.toLowerCase()));
  if (missing.length === 0) return { meta: metaOf(found), body };
  const lines = missing.map(([name, value]) => `${name}: ${value}\n`).join('');
  const end = found.length > 0 ? at : start;
  let head = body.slice(0, end);
  // At the end of the body: on a line of their own, a blank line under the heading.
  if (end === body.length && head.trim())
    head = found.length > 0 ? head.replace(/\n?$/, '\n') : `${head.trimEnd()}\n\n`;
  // Before the text: a blank line after them.
  const gap = found.length === 0 && end < body.length ? '\n' : '';
  return { meta: metaOf([...found, ...missing]), body: head + lines + gap + body.slice(end) };
}

/** A page's key among the rows with pages: its folder and its title's key. */
const pageKey = (rel: string) =>
  rel.slice(0, rel.length - baseName(rel).length) + titleKey(nameOf(rel) ?? stem(rel));

/** A page: a Markdown note, with the properties of its database row when it has one. */
async function page(
  source: ImportSource,
  entry: SourceEntry,
  rel: string,
  row: readonly Property[] | undefined,
  now: Date,
): Promise<ItemBody[]> {
  const raw = await source.read(entry.name, IMPORT_LIMITS.fileBytes);
  return markdownNote(raw, entry, 'markdown', {
    now,
    fallbackTitle: nameOf(rel) ?? stem(rel),
    fileDate: null,
    indentedCode: true,
    properties: (body) => pageProperties(body, row),
  });
}

/**
 * A Notion export (Markdown & CSV): each `.md` page a note (title from its `# ` heading, else its
 * name without the id; dates and tags from its properties), each database CSV a note per row
 * whose page is not in the export (title from the first column, the other properties as
 * `Property: value` lines). A row whose page is there gives its properties to that page's note.
 */
export const notionReader: FormatReader = {
  format: 'notion',
  async *read(source, options) {
    const top = topFolder(source.entries);
    const rels = source.entries.map((e) => relativeName(e.name, top));
    const chosen = databases(rels.filter((r) => !hiddenReason(r)));
    const quarantined = new Set(
      [...(options.quarantined?.keys() ?? [])].map((i) => source.entries[i]?.name ?? ''),
    );
    const merged = await rowsWithPages(source, top, chosen, quarantined);
    yield* walkEntries(source, options, (entry) => {
      const rel = relativeName(entry.name, top);
      const hidden = hiddenReason(rel);
      const ext = extensionOf(rel);
      if (hidden) return skipped(hidden);
      if (ext === 'csv') {
        const used = chosen.get(rowFolder(rel));
        if (used === rel) return database(source, entry, rel, merged, options.now);
        if (used !== undefined) return skipped(`Not a note (the same database as ${baseName(used)})`);
        return skipped(notANote(rel));
      }
      if (ext !== 'md' && ext !== 'markdown') return skipped(notANote(rel));
      if (entry.size > IMPORT_LIMITS.fileBytes) return tooLarge();
      return page(source, entry, rel, merged.get(pageKey(rel)), options.now);
    });
  },
};
