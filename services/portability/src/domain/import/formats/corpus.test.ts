import { describe, expect, it } from 'vitest';
import { MAX_CONTENT_LENGTH } from '@haven/contracts/thoughts';
import type { ImportItem } from '../source';
import { dirSource, listing } from './dir-source.test-support';
import { detectFormat } from './index';
import { problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

/*
 * The readers on real exports (../shared/corpora/notes, see its README). Every label below is ours,
 * by hand from reading the files: nothing in the corpus is labelled.
 */

const VAULTS = {
  // The help vault is a repository's folder, without .obsidian/: a plain folder of notes.
  'obsidian-help-en': 'notes',
  'kepano-vault': 'obsidian',
  'bgcasey-vault': 'obsidian',
  'logseq-docs': 'logseq',
  'joplin-frontmatter': 'notes',
  'joplin-raw': 'joplin',
} as const;
type Vault = keyof typeof VAULTS;

/** Dates labelled by hand (file → localDate, or full instant), used while writing the readers. */
const TUNING: Record<string, string> = {
  'joplin-frontmatter/date_bug.md': '2025-07-22', // created: 2025-07-22 17:30:44Z
  'joplin-frontmatter/full.md': '2019-05-01', // Created: 2019-05-01 16:54 (capital C)
  'joplin-frontmatter/notesnook_updated_created.md': '2024-01-01', // created_at: 01-01-2024 01:23 AM
  'joplin-frontmatter/r-markdown.md': '2021-06-10', // date: "2021-06-10"
  'joplin-frontmatter/short_date.md': '2017-01-01', // created: 2017-01-01 (updated 2021 ignored)
  'joplin-frontmatter/utc.md': '2019-05-01', // created: 2019-05-01 16:54-07:00 (the day written)
  'joplin-raw/264606b4634f4fe58dda0e58a0dc64d9.md': '2021-08-07T17:03:33.725Z',
  'joplin-raw/59e44f93f28242529fbbca804bdd25c5.md': '2021-08-07T17:03:33.711Z',
  'joplin-raw/5c0b421ac1e645e48dbdba4ed5328327.md': '2021-08-07T17:03:33.720Z',
  'joplin-raw/6b3b51468e8e44f1ba1b69e4d7e71613.md': '2021-08-07T17:03:33.710Z',
  'joplin-raw/8436cd9c58824ca58ed146d7bd519dfd.md': '2021-08-07T17:03:33.592Z',
  'kepano-vault/Notes/2023-09-12 Meeting with Steph.md': '2023-09-12',
  'kepano-vault/Daily/2023-09-12.md': '2023-09-12',
  'kepano-vault/Daily/2023-09-30.md': '2023-09-30',
  'bgcasey-vault/5_system/git_instructions.md': '2024-07-23',
  'bgcasey-vault/maps_of_content/presentations_moc.md': '2024-10-13',
  'bgcasey-vault/maps_of_content/meetings_moc.md': '2024-04-11',
};

/** Held out: labelled from the files' `created:`/`date:` lines, never looked at while tuning. */
const HELD_OUT: Record<string, string> = {
  'kepano-vault/Clippings/68 Bits of Unsolicited Advice.md': '2023-09-12',
  'kepano-vault/Clippings/In good hands.md': '2023-09-12',
  'kepano-vault/Notes/Evergreen notes turn ideas into objects that you can manipulate.md': '2023-09-14',
  'kepano-vault/References/Brown butter nectarine tart.md': '2023-09-12',
  'kepano-vault/References/Kevin Kelly.md': '2023-09-12',
  'kepano-vault/References/Kyoto.md': '2023-09-12',
  'kepano-vault/References/Paul Chambers.md': '2023-09-13',
  'kepano-vault/References/Steph Ango.md': '2023-09-12',
  'kepano-vault/References/The Machine Stops.md': '2023-09-12',
  'kepano-vault/References/Bass on Top.md': '2023-09-12',
  'kepano-vault/References/Fushimi Inari.md': '2023-09-12',
  'kepano-vault/References/Futurama.md': '2023-09-12',
  'kepano-vault/References/Out of Control.md': '2023-09-12',
  'bgcasey-vault/5_system/templates/peer_review.md': '2024-10-23',
};

/** Titles labelled by hand. */
const TITLES: Record<string, string> = {
  'obsidian-help-en/Editing and formatting/Tags.md': 'Tags',
  'joplin-frontmatter/full.md': 'Test Note Title',
  'joplin-frontmatter/notesnook_updated_created.md': 'Frontmatter test',
  'joplin-raw/8436cd9c58824ca58ed146d7bd519dfd.md': 'note1',
  'logseq-docs/pages/Whiteboard___Action Bar.md': 'Whiteboard/Action Bar',
  'logseq-docs/journals/2020_09_23.md': 'Sep 23rd, 2020',
  'kepano-vault/Clippings/In good hands.md': 'In good hands',
};

const runs = new Map<Vault, Promise<{ items: ImportItem[]; reads: string[] }>>();
/** Each vault read once, zipped under a top folder as people zip a vault. */
function run(vault: Vault) {
  if (!runs.has(vault))
    runs.set(
      vault,
      (async () => {
        const source = dirSource(vault, 'Export/');
        const reader = detectFormat(source.entries);
        expect(reader?.format).toBe(VAULTS[vault]);
        return { items: await readAll(reader!, source), reads: source.reads };
      })(),
    );
  return runs.get(vault)!;
}

const keyOf = (vault: string, item: ImportItem) => `${vault}/${item.file.slice('Export/'.length)}`;

/** Dates right among labelled notes that were imported: [right, labelled]. */
async function score(labels: Record<string, string>): Promise<[number, number, string[]]> {
  let right = 0;
  let total = 0;
  const wrong: string[] = [];
  for (const vault of Object.keys(VAULTS) as Vault[])
    for (const t of thoughtsOf((await run(vault)).items)) {
      const expected = labels[keyOf(vault, t)];
      if (!expected || (t.part && t.part.n > 1)) continue;
      total++;
      const ok = expected.length > 10 ? t.thought.date === expected : t.thought.localDate === expected;
      if (ok && t.dateSource !== 'zip-time' && t.dateSource !== 'import-day') right++;
      else wrong.push(`${keyOf(vault, t)}: ${t.thought.localDate} (${t.dateSource})`);
    }
  return [right, total, wrong];
}

describe.each(Object.keys(VAULTS) as Vault[])('the %s export', (vault) => {
  it('loses no note and never reads a file that is not one', async () => {
    const { items, reads } = await run(vault);
    const files = listing(vault);
    const notes = files.filter((f) => f.note && !f.absent).map((f) => `Export/${f.file}`);
    for (const note of notes) {
      const mine = items.filter((i) => i.file === note);
      expect(mine.length, note).toBeGreaterThan(0);
      for (const i of mine) if (i.kind === 'problem') expect(i.reason, note).toBeTruthy();
    }
    for (const other of files.filter((f) => !f.note)) {
      const mine = items.filter((i) => i.file === `Export/${other.file}`);
      expect(mine, other.file).toEqual([expect.objectContaining({ kind: 'problem', outcome: 'skipped' })]);
    }
    expect(reads.every((r) => notes.includes(r))).toBe(true);
    const thoughts = thoughtsOf(items);
    expect(thoughts.every((t) => t.thought.content.length <= MAX_CONTENT_LENGTH)).toBe(true);
    const noteProblems = problemsOf(items).filter((p) => notes.includes(p.file));
    const figures = {
      notes: notes.length,
      imported: new Set(thoughts.map((t) => t.file)).size,
      thoughts: thoughts.length,
      split: new Set(thoughts.filter((t) => t.part).map((t) => t.file)).size,
      skipped: noteProblems.filter((p) => p.outcome === 'skipped').length,
      failed: noteProblems.filter((p) => p.outcome === 'failed').length,
      notNotes: files.length - notes.length,
      datedBy: Object.fromEntries(
        ['metadata', 'file-name', 'zip-time', 'import-day'].map((s) => [
          s,
          thoughts.filter((t) => t.dateSource === s).length,
        ]),
      ),
    };
    console.log(vault, JSON.stringify(figures));
    expect(figures.imported + figures.skipped + figures.failed).toBe(notes.length);
  });

  it('keeps every title visible at the top of its thoughts', async () => {
    for (const t of thoughtsOf((await run(vault)).items)) {
      const first = t.thought.content.split('\n', 1)[0]!;
      expect(t.thought.title, t.file).toBeTruthy();
      expect(first.toLowerCase(), t.file).toContain(t.thought.title!.toLowerCase().split('\n')[0]);
      if (t.part) expect(first, t.file).toContain(`(part ${t.part.n} of ${t.part.of})`);
    }
  });

  it('takes no tag from code, URLs, colours or numbers', async () => {
    const tags = thoughtsOf((await run(vault)).items).flatMap((t) => t.thought.tags);
    for (const tag of tags) {
      expect(tag).not.toMatch(/^\d+$/);
      expect(tag).not.toMatch(/^(?=.*\d)(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i);
      expect(tag).not.toMatch(/[{}<>%:]|https?|www\./);
    }
  });
});

describe('fidelity on the corpus', () => {
  it('names titles as labelled', async () => {
    for (const [key, title] of Object.entries(TITLES)) {
      const vault = key.split('/')[0] as Vault;
      const t = thoughtsOf((await run(vault)).items).find((i) => keyOf(vault, i) === key);
      expect(t?.thought.title, key).toBe(title);
    }
    const notesnook = thoughtsOf((await run('joplin-frontmatter')).items).find((t) =>
      t.file.endsWith('notesnook_updated_created.md'),
    );
    expect(notesnook!.thought.content).toBe('# Frontmatter test\n\nA test note with frontmatter.');
  });

  it('dates every Logseq journal by its file name', async () => {
    const journals = thoughtsOf((await run('logseq-docs')).items).filter((t) =>
      t.file.includes('/journals/'),
    );
    const files = new Set(journals.map((t) => t.file));
    expect(files.size).toBe(75);
    for (const t of journals) {
      const [, y, m, d] = /(\d{4})_(\d{2})_(\d{2})\.md$/.exec(t.file)!;
      expect(t.thought.localDate, t.file).toBe(`${y}-${m}-${d}`);
      expect(t.dateSource).toBe('file-name');
    }
  });

  it('gets ≥98% of labelled dates right, on the tuning labels and on the held-out ones', async () => {
    const [right, total, wrong] = await score(TUNING);
    const [heldRight, heldTotal, heldWrong] = await score(HELD_OUT);
    console.log(`dates: tuning ${right}/${total}, held out ${heldRight}/${heldTotal}`, wrong, heldWrong);
    expect(total).toBeGreaterThanOrEqual(15);
    expect(right / total).toBeGreaterThanOrEqual(0.98);
    expect(heldTotal).toBeGreaterThanOrEqual(8);
    expect(heldRight / heldTotal).toBeGreaterThanOrEqual(0.98);
  });

  it('honours Joplin created_time and front-matter created, and its tags', async () => {
    const raw = thoughtsOf((await run('joplin-raw')).items);
    expect(
      raw.every((t) => t.dateSource === 'metadata' && t.thought.date.startsWith('2021-08-07T17:03:33')),
    ).toBe(true);
    expect(raw.every((t) => !/created_time|type_:/.test(t.thought.content))).toBe(true);
    const fm = thoughtsOf((await run('joplin-frontmatter')).items);
    const full = fm.find((t) => t.file.endsWith('/full.md'))!;
    expect(full.thought).toMatchObject({
      date: '2019-05-01T16:54:00.000Z',
      tags: ['Joplin', 'nOte', 'pencil'],
    });
    expect(fm.find((t) => t.file.endsWith('/inline_tags.md'))!.thought.tags).toEqual(['inline', 'tag']);
    expect(fm.find((t) => t.file.endsWith('/r-markdown.md'))!.thought.tags).toEqual(['YAML', 'Rmd']);
  });

  it('takes the Obsidian help’s real tags, none from its code examples', async () => {
    const items = thoughtsOf((await run('obsidian-help-en')).items);
    const tagsOf = (file: string) => items.find((t) => t.file === `Export/${file}`)!.thought.tags;
    // Prose tags of Tags.md; `#meeting`, `#inbox/to-read`, `#a/b` are all in inline code, #1984 a number.
    expect(tagsOf('Editing and formatting/Tags.md')).toEqual([
      'y1984',
      'tag',
      'camelCase',
      'PascalCase',
      'snake_case',
      'kebab-case',
    ]);
    expect(tagsOf('Editing and formatting/Basic formatting syntax.md')).toEqual([]);
    const all = new Set(items.flatMap((t) => t.thought.tags.map((x) => x.toLowerCase())));
    for (const code of ['meeting', 'inbox/to-read', 'foo', 'a/b', '000000', 'c6dbef', 'supported-languages'])
      expect(all.has(code), code).toBe(false);
  });
});
