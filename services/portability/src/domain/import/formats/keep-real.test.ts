import { describe, expect, it } from 'vitest';
import type { ImportSource } from '../source';
import { detectFormat } from './index';
import { keepReader } from './keep-reader';
import {
  REAL,
  describeScore,
  folderSource,
  score,
  total,
  zipSource,
  type Label,
  type Score,
} from './labelled.test-support';
import { problemsOf, readAll } from './memory-source.test-support';
import { corpusPresent } from '@haven/kit/corpus';

/*
 * The five real Google Keep Takeouts of the corpus (SOURCES.md there), labelled by hand from their
 * JSON: each live note's title, labels and checklist. The tuning half was looked at while the
 * reader was built; the held-out half was labelled but not tuned against.
 */

/** The NotallyX fixture's notes; the German Takeout has the same ones under `Google Notizen/`. */
const NOTALLYX: Label[] = [
  { probe: 'This is archived', title: 'Archived', tags: [] },
  { probe: 'This includes audio', title: 'Audio', tags: [] },
  { probe: 'This has a file', title: 'File', tags: [] },
  { probe: 'This has an image', title: 'Image', tags: [] },
  { probe: 'This is some note, nothing special', title: 'Normal Note', tags: ['Label1'] },
  {
    probe: 'Parent1',
    title: 'Pinned List',
    tags: [],
    checks: [
      ['Parent1', false],
      ['Child1', false],
      ['Child2', false],
      ['Parent2', false],
      ['Parent4', true],
      ['Parent3', true],
      ['Child4', true],
    ],
  },
  { probe: 'I want to format this', title: 'Text formatting', tags: ['Label1', 'Label2'] },
];

/** The notesnook 2021 Takeout: untitled notes (named by their edit time), a checklist, labels. */
const NOTESNOOK_2021: Label[] = [
  { probe: 'hello world', title: null, tags: [] },
  { probe: 'another note', title: null, tags: [] },
  {
    probe: '] bing',
    title: null,
    tags: ['cats', 'run'],
    checks: [
      ['note', false],
      ['bing', false],
      ['run', false],
      ['fast', false],
    ],
  },
  { probe: 'a simple drawing', title: 'draw', tags: [] },
  { probe: 'this is a note', title: 'good place', tags: [] },
];

interface Export {
  name: string;
  open: () => ImportSource | Promise<ImportSource>;
  labels: Label[];
  /** Trashed notes: skipped, each with why. */
  trashed: number;
}

const TUNING: Export[] = [
  {
    name: 'keep/notallyx-german',
    open: () => folderSource('keep/notallyx-german'),
    labels: NOTALLYX,
    trashed: 1,
  },
  {
    name: 'keep/notesnook-2021',
    open: () => folderSource('keep/notesnook-2021'),
    labels: NOTESNOOK_2021,
    trashed: 0,
  },
];

const HELD_OUT: Export[] = [
  { name: 'keep/notallyx', open: () => folderSource('keep/notallyx'), labels: NOTALLYX, trashed: 1 },
  {
    name: 'keep/notesnook-2023',
    open: () => folderSource('keep/notesnook-2023'),
    labels: [
      // `#theySay_(5)` is only its title: a title alone is a Keep note.
      { probe: '#theySay', title: '#theySay', tags: ['theySay'] },
      { probe: 'There is some text!', title: '#theySay', tags: ['theySay'] },
      {
        probe: 'Screenshot (09:48PM, Nov 25, 2020)',
        title: 'Screenshot (09:48PM, Nov 25, 2020)',
        tags: ['Ответы'],
      },
      ...NOTESNOOK_2021,
    ],
    trashed: 0,
  },
  {
    name: 'keep/notesnook-2026 (zip)',
    open: () => zipSource('keep/notesnook-2026/takeout-20260605T094613Z-3-001.zip'),
    labels: [{ probe: 'hello\nworld\n\nnew para\n\nmore text', title: 'note', tags: [] }],
    trashed: 0,
  },
];

/** Imports one export: detected as Keep, every live note a thought, only the trash skipped as such. */
async function scoreOf(upload: Export): Promise<Score> {
  const source = await upload.open();
  expect(detectFormat(source.entries)?.format).toBe('keep');
  const items = await readAll(keepReader, source);
  const problems = problemsOf(items);
  expect(problems.filter((p) => p.outcome === 'failed')).toEqual([]);
  expect(problems.filter((p) => p.reason === 'In the Keep trash')).toHaveLength(upload.trashed);
  // Every `.json` is a note: none is skipped as anything but the trash.
  expect(problems.filter((p) => p.file.endsWith('.json') && p.reason !== 'In the Keep trash')).toEqual([]);
  const live = new Set(items.filter((i) => i.kind === 'thought').map((i) => i.file));
  expect(live.size).toBe(upload.labels.length);
  return score(items, upload.labels);
}

describe.runIf(corpusPresent(REAL))('Google Keep Takeouts of the corpus, labelled', () => {
  const results: Record<'tuning' | 'held-out', Score[]> = { tuning: [], 'held-out': [] };

  for (const [half, uploads] of [
    ['tuning', TUNING],
    ['held-out', HELD_OUT],
  ] as const)
    it.each(uploads)(`${half}: $name`, async (upload) => {
      const s = await scoreOf(upload);
      results[half].push(s);
      console.log(describeScore(`${half} ${upload.name}`, s), s.wrong.length ? s.wrong : '');
      // Every note of each upload is kept (the figures are judged over each half below).
      expect(s.lost).toBe(0);
    });

  it('keeps every note, ≥95% of titles, tags and checklist states in each half', () => {
    for (const half of ['tuning', 'held-out'] as const) {
      const s = total(results[half]);
      console.log(describeScore(`Keep ${half}`, s));
      expect(s.lost).toBe(0);
      expect(s.titlesRight / s.notes).toBeGreaterThanOrEqual(0.95);
      expect(s.tagsRight / s.notes).toBeGreaterThanOrEqual(0.95);
      expect(s.checksKept / s.checks).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('does not take Labels.txt of a German Takeout for a note', async () => {
    const items = await readAll(keepReader, folderSource('keep/notallyx-german'));
    const labels = items.find((i) => i.file.endsWith('Labels.txt'));
    expect(labels).toMatchObject({ kind: 'problem', reason: 'Not a note (the list of Keep labels)' });
  });
});
