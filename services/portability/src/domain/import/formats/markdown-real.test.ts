import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { StoredBlob } from '../../blob-store';
import type { ImportItem, ImportSource } from '../source';
import { openZipSource } from '../zip-source';
import { detectFormat } from './index';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';
import { corpusPresent } from '@haven/kit/corpus';

/*
 * Markdown notes with front matter, and TextBundles, from ../shared/corpora/import-real (read in
 * place; SOURCES.md there names each file), against labels of ours, written by hand from reading
 * the files. The tuning half was looked at while the readers were written; the held-out half was
 * labelled and only run at the end. A folder is read as if zipped under its own name, every file
 * timed ZIP_TIME (so "zip" below: dated by the file's time); a zip (Ulysses, TextPack) as it is.
 */

const REAL = path.resolve(import.meta.dirname, '../../../../../../../shared/corpora/import-real');
const ZIP_TIME = new Date('2020-05-05T10:00:00Z');

/** What a note should import as: `date` is the day written, or "zip" for the file's time. */
interface Label {
  title: string;
  tags: string[];
  date: string;
}
const label = (title: string, tags: string[] = [], date = 'zip'): Label => ({ title, tags, date });

/** Uploads: a folder of the corpus or a zip in it, the format it is detected as. */
const UPLOADS: Record<string, string> = {
  'joplin/frontmatter-yaml': 'notes',
  'other/notesnook-md': 'notes',
  'other/obsidian-importer-markdown': 'notes',
  'other/textbundle': 'textbundle',
  'other/textbundle/Ulysses Export.zip': 'textbundle',
  'other/textbundle/example.textpack': 'textbundle',
  'other/textbundle/example 2.textpack': 'textbundle',
};

/** Keys are `upload → entry name`. */
const TUNING: Record<string, Label> = {
  'joplin/frontmatter-yaml → frontmatter-yaml/duplicates.md': label('ddd', ['banana']),
  // Tab-indented list items: not YAML, read line by line.
  'joplin/frontmatter-yaml → frontmatter-yaml/normalize.md': label('norm', ['tag1', 'tag2', 'tag3']),
  'joplin/frontmatter-yaml → frontmatter-yaml/numbers.md': label('001'),
  'joplin/frontmatter-yaml → frontmatter-yaml/note_with_byte_order_mark.md': label('Frontmatter test', [
    'tag1',
    'tag2',
  ]),
  // `Created: 28/09/2021 20:57`, day first.
  'joplin/frontmatter-yaml → frontmatter-yaml/title_newline.md': label('First\nSecond', [], '2021-09-28'),
  'joplin/frontmatter-yaml → frontmatter-yaml/unquoted.md': label('Unquoted'),
  'joplin/frontmatter-yaml → frontmatter-yaml/r-markdown_author.md': label('Distill for R Markdown'),
  'other/notesnook-md → notesnook-md/md-with-frontmatter.md': label(
    'A beautiful morning',
    ['wonderful', 'journal'],
    '2013-06-06',
  ),
  // Opens with a `---` rule, then prose: no front matter, and its first line is no heading.
  'other/notesnook-md → notesnook-md/test2.md': label('test2'),
  'other/notesnook-md → notesnook-md/Tu es né sans prévenir.md': label('Tu es né sans prévenir'),
  'other/obsidian-importer-markdown → obsidian-importer-markdown/frontmatter.md': label(
    'Reading list',
    ['books', 'fiction'],
    '2026-01-14',
  ),
  // `## Notes on the build` is no title (level 2): the file name.
  'other/obsidian-importer-markdown → obsidian-importer-markdown/code.md': label('code', [
    'shell',
    'after-fence',
    '1a',
  ]),
  'other/textbundle → textbundle/Textbundle Example v1.textbundle/text.md': label('Textbundle Example'),
  'other/textbundle/Ulysses Export.zip → A Super-Quick Markup Primer.textbundle/text.md': label(
    'A Super-Quick Markup Primer',
    [],
    '2024-02-13',
  ),
};

const HELD_OUT: Record<string, Label> = {
  'joplin/frontmatter-yaml → frontmatter-yaml/multiple_newlines_after_marker.md': label('Example'),
  'joplin/frontmatter-yaml → frontmatter-yaml/no_newline_after_marker.md': label('Example'),
  'joplin/frontmatter-yaml → frontmatter-yaml/not_a_task.md': label('Not a task'),
  'joplin/frontmatter-yaml → frontmatter-yaml/note_with_dataurl_image.md': label('DataUrl image'),
  'joplin/frontmatter-yaml → frontmatter-yaml/task_completed.md': label('Task'),
  'joplin/frontmatter-yaml → frontmatter-yaml/title_start_with_dash.md': label('-Start with dash'),
  'other/notesnook-md → notesnook-md/gulp4_configuration.md': label('Gulp 4 Configuration'),
  'other/notesnook-md → notesnook-md/test.md': label('An h1 header'),
  'other/obsidian-importer-markdown → obsidian-importer-markdown/leading.md': label('Reading list', [
    'books',
    'fiction',
    'nonfiction',
  ]),
  'other/obsidian-importer-markdown → obsidian-importer-markdown/lists.md': label('Shopping'),
  'other/obsidian-importer-markdown → obsidian-importer-markdown/tags.md': label('Trip planning', [
    'travel',
    'planning/2026',
    'todo',
    'wishlist',
  ]),
  'other/textbundle → textbundle/Textbundle Example v2.textbundle/text.markdown': label('Textbundle Example'),
  // The zip (macOS's Archive Utility) has no UTF-8 flag on its UTF-8 names: read as UTF-8 all the same.
  'other/textbundle/Ulysses Export.zip → Search – and Find.textbundle/text.md': label(
    'Search – and Find',
    [],
    '2024-02-13',
  ),
  'other/textbundle/example.textpack → Textbundle Example.textbundle/text.markdown': label(
    'Textbundle Example',
    [],
    '2014-09-01',
  ),
  // Labelled "Textbundle Example" at first, from its sister's text without reading this one: it
  // says `# Textpack Example`. The label was corrected; the run at the end had counted it wrong.
  'other/textbundle/example 2.textpack → Textpack Example.textbundle/text.markdown': label(
    'Textpack Example',
    [],
    '2024-02-20',
  ),
};

/** Every file under a folder, `/`-separated, in a stable order. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? filesUnder(full, `${prefix}${name}/`) : [`${prefix}${name}`];
    });
}

const bufferBlob = (bytes: Buffer): StoredBlob => ({
  id: 'corpus',
  size: bytes.length,
  readRange: async (start, end) => bytes.subarray(start, end),
  stream: () => Readable.from([bytes]),
});

async function sourceOf(upload: string): Promise<ImportSource> {
  const where = path.join(REAL, upload);
  if (statSync(where).isFile()) return openZipSource(bufferBlob(readFileSync(where)));
  const top = path.basename(where);
  const files = Object.fromEntries(
    filesUnder(where).map((file) => [`${top}/${file}`, readFileSync(path.join(where, file))]),
  );
  return memorySource(files, ZIP_TIME);
}

const runs = new Map<string, Promise<{ format: string | null; items: ImportItem[] }>>();
function importOf(upload: string) {
  if (!runs.has(upload))
    runs.set(
      upload,
      (async () => {
        const source = await sourceOf(upload);
        const reader = detectFormat(source.entries);
        return { format: reader?.format ?? null, items: reader ? await readAll(reader, source) : [] };
      })(),
    );
  return runs.get(upload)!;
}

/** Names in the corpus are NFD (macOS), the labels NFC: compared as text, not as code points. */
const same = (a: string, b: string) => a.normalize('NFC') === b.normalize('NFC');

/** Notes lost, and titles, tags and dates right, among labelled notes; what was wrong, by key. */
async function score(labels: Record<string, Label>) {
  const figures = { notes: 0, lost: 0, titles: 0, tags: 0, dates: 0 };
  const wrong: string[] = [];
  for (const [key, want] of Object.entries(labels)) {
    const [upload, file] = key.split(' → ') as [string, string];
    const { items } = await importOf(upload);
    const thought = thoughtsOf(items).find((t) => same(t.file, file) && (t.part?.n ?? 1) === 1);
    figures.notes++;
    if (!thought) {
      figures.lost++;
      wrong.push(
        `${key}: lost (${problemsOf(items).find((p) => same(p.file, file))?.reason ?? 'not found'})`,
      );
      continue;
    }
    const { title, tags, localDate } = thought.thought;
    if (title !== null && same(title, want.title)) figures.titles++;
    else wrong.push(`${key}: title ${JSON.stringify(title)}`);
    if (JSON.stringify(tags) === JSON.stringify(want.tags)) figures.tags++;
    else wrong.push(`${key}: tags ${JSON.stringify(tags)}`);
    const dated =
      want.date === 'zip'
        ? thought.dateSource === 'zip-time' && localDate === ZIP_TIME.toISOString().slice(0, 10)
        : localDate === want.date;
    if (dated) figures.dates++;
    else wrong.push(`${key}: date ${localDate} (${thought.dateSource})`);
  }
  return { figures, wrong };
}

const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
const summary = (name: string, { notes, lost, titles, tags, dates }: Record<string, number>) =>
  `${name}: ${notes} notes, ${lost} lost, titles ${percent(titles!, notes!)}, tags ${percent(tags!, notes!)}, dates ${percent(dates!, notes!)}`;

describe.runIf(corpusPresent(REAL))(
  'Markdown notes with front matter, and TextBundles, of real exports',
  () => {
    it.each(Object.entries(UPLOADS))(
      'detects %s as %s and loses none of its notes',
      async (upload, format) => {
        const { format: detected, items } = await importOf(upload);
        expect(detected).toBe(format);
        expect(problemsOf(items).filter((p) => p.outcome === 'failed')).toEqual([]);
        expect(thoughtsOf(items).length).toBeGreaterThan(0);
      },
    );

    it('labels every Markdown note and TextBundle of these uploads', async () => {
      const labelled = new Set(
        [...Object.keys(TUNING), ...Object.keys(HELD_OUT)].map((k) => k.normalize('NFC')),
      );
      for (const upload of Object.keys(UPLOADS))
        for (const t of thoughtsOf((await importOf(upload)).items))
          expect(labelled.has(`${upload} → ${t.file}`.normalize('NFC')), t.file).toBe(true);
    });

    it('loses no note and gets ≥95% of titles, tags and dates right, tuning and held out', async () => {
      const tuning = await score(TUNING);
      const heldOut = await score(HELD_OUT);
      console.log(
        `${summary('tuning', tuning.figures)}\n${summary('held out', heldOut.figures)}`,
        tuning.wrong,
        heldOut.wrong,
      );
      for (const { figures } of [tuning, heldOut]) {
        expect(figures.lost).toBe(0);
        expect(figures.titles / figures.notes).toBeGreaterThanOrEqual(0.95);
        expect(figures.dates / figures.notes).toBeGreaterThanOrEqual(0.95);
        expect(figures.tags / figures.notes).toBeGreaterThanOrEqual(0.95);
      }
    });

    it('says in the report what of a note’s front matter it could not read', async () => {
      const { items } = await importOf('joplin/frontmatter-yaml');
      const normalize = thoughtsOf(items).find((t) => t.file.endsWith('/normalize.md'))!;
      expect(normalize.note).toMatch(
        /^Line 4: The front matter is not valid YAML \(Tabs .*\): read line by line$/,
      );
      expect(normalize.thought.content).toBe('# norm\n\nnote body');
      const numbers = thoughtsOf(items).find((t) => t.file.endsWith('/numbers.md'))!;
      expect(numbers.note).toBeUndefined();
    });
  },
);
