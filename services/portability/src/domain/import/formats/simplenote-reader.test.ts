import { describe, expect, it } from 'vitest';
import { ImportLimitError } from '../source';
import { detectFormat } from './index';
import { REAL, describeScore, score, zipSource, type Label } from './labelled.test-support';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';
import { simplenoteReader } from './simplenote-reader';
import { corpusPresent } from '@haven/kit/corpus';

const NOTES_JSON = JSON.stringify(
  {
    activeNotes: [
      {
        id: 'a1',
        content: 'Groceries\r\n\r\nmilk\r\neggs #errands',
        creationDate: '2021-03-04T05:06:07.000Z',
        lastModified: '2022-01-01T00:00:00.000Z',
        tags: ['home', 'Shopping'],
      },
      {
        id: 'a2',
        content: '# Plan\n\n- one\n- two',
        creationDate: '2020-01-02T03:04:05.000Z',
        markdown: true,
      },
      { id: 'a3', content: 'Ideas\nmore', markdown: true, lastModified: '2019-05-05T10:00:00.000Z' },
      { id: 'a4', content: '   ' },
    ],
    trashedNotes: [{ id: 't1', content: 'Old stuff\n\ngone', creationDate: '2019-01-01T00:00:00.000Z' }],
  },
  null,
  2,
);

describe('Simplenote', () => {
  it('reads the JSON export: first line as title, dates, tags; the trash and the .txt copies are skipped', async () => {
    const source = memorySource({
      'source/notes.json': NOTES_JSON,
      'Groceries.txt': 'Groceries\n\nmilk',
      'trash/Old stuff.txt': 'Old stuff\n\ngone',
    });
    expect(detectFormat(source.entries)).toBe(simplenoteReader);
    const items = await readAll(simplenoteReader, source);
    const [groceries, plan, ideas] = thoughtsOf(items).map((t) => t.thought);
    expect(groceries).toMatchObject({
      title: 'Groceries',
      content: 'Groceries\n\nmilk\neggs #errands',
      date: '2021-03-04T05:06:07.000Z',
      tags: ['home', 'Shopping', 'errands'],
      format: 'text',
    });
    expect(plan).toMatchObject({ title: 'Plan', content: '# Plan\n\n- one\n- two', format: 'markdown' });
    expect(ideas).toMatchObject({
      title: 'Ideas',
      content: '# Ideas\n\nmore',
      date: '2019-05-05T10:00:00.000Z',
    });
    expect(problemsOf(items).map((p) => [p.file, p.outcome, p.reason])).toEqual([
      ['source/notes.json', 'skipped', 'Note 4: empty'],
      ['source/notes.json', 'skipped', 'Note 5 ("Old stuff"): in the Simplenote trash'],
      ['Groceries.txt', 'skipped', 'Not a note (the text copy of a note in notes.json)'],
      ['trash/Old stuff.txt', 'skipped', 'In the Simplenote trash'],
    ]);
    expect(source.reads).toEqual(['source/notes.json']);
  });

  it('reads a folder of .txt notes without the JSON, never its trash', async () => {
    const source = memorySource({ 'Walk.txt': 'Walk\n\nby the river', 'trash/Old.txt': 'Old\n\ngone' });
    expect(detectFormat(source.entries)).toBe(simplenoteReader);
    const items = await readAll(simplenoteReader, source);
    expect(thoughtsOf(items).map((t) => [t.thought.title, t.thought.content])).toEqual([
      ['Walk', 'Walk\n\nby the river'],
    ]);
    expect(problemsOf(items)).toMatchObject([{ file: 'trash/Old.txt', reason: 'In the Simplenote trash' }]);
  });

  it('fails a malformed notes.json at its line, after the notes before it', async () => {
    const broken = NOTES_JSON.replace('"a3"', '"a3" oops');
    const items = await readAll(simplenoteReader, memorySource({ 'source/notes.json': broken }));
    expect(thoughtsOf(items)).toHaveLength(2);
    expect(problemsOf(items)).toMatchObject([
      { outcome: 'failed', line: broken.split('\n').findIndex((l) => l.includes('oops')) + 1 },
    ]);
  });

  it('lets a limit error of the source fail the whole import', async () => {
    const source = memorySource({ 'source/notes.json': NOTES_JSON });
    source.stream = (name) => memorySource({ [name]: NOTES_JSON }).stream(name, 100);
    await expect(readAll(simplenoteReader, source)).rejects.toBeInstanceOf(ImportLimitError);
  });
});

/*
 * The two real Simplenote exports of the corpus (SOURCES.md there), labelled by hand from their
 * notes.json: titles (the first line) and tags (Simplenote's own, and the #tags of the prose, as
 * the product takes them from every note; never those in URLs). simplenote.zip was the tuning
 * half, notes_1.zip the held-out half.
 */
const EXPORTS: Array<{ half: string; zip: string; labels: Label[]; trashed: string[] }> = [
  {
    half: 'tuning',
    zip: 'other/simplenote/simplenote.zip',
    labels: [
      { probe: 'video player hd', title: 'KEYWORDS LIST OF MINT PLAYER', tags: [] },
      { probe: 'We Contribute', title: 'List of Pages', tags: ['cow', 'hello'] },
    ],
    trashed: ['Welcome to Simplenote!'],
  },
  {
    half: 'held-out',
    zip: 'other/simplenote/notes_1.zip',
    labels: [
      { probe: 'Simplenote is an easy way', title: 'Welcome to Simplenote', tags: [] },
      {
        probe: 'Dennis Tedlock',
        title:
          'These are selections from work in progress that speaks from years with the Zunis in New Mexico.',
        tags: ['poem'],
      },
      { probe: 'a little knowledge can go a long way', title: 'truisms', tags: [] },
      { probe: 'moon plants stars soil trees', title: 'urlar', tags: [] },
      { probe: 'it began to rain', title: 'waiting for the memory', tags: [] },
      { probe: 'I am a wallflower', title: 'wallflower', tags: ['poem'] },
      { probe: 'Write out a clear, detailed', title: '#goals', tags: [] },
    ],
    trashed: [],
  },
];

describe.runIf(corpusPresent(REAL))('Simplenote exports of the corpus, labelled', () => {
  it.each(EXPORTS)('$half: $zip', async ({ half, zip, labels, trashed }) => {
    const source = await zipSource(zip);
    expect(detectFormat(source.entries)?.format).toBe('simplenote');
    const items = await readAll(simplenoteReader, source);
    const problems = problemsOf(items);
    expect(problems.filter((p) => p.outcome === 'failed')).toEqual([]);
    expect(
      problems.filter((p) => p.reason.endsWith(': in the Simplenote trash')).map((p) => p.reason),
    ).toEqual(
      trashed.map((title, i) => `Note ${labels.length + i + 1} ("${title}"): in the Simplenote trash`),
    );
    // Nothing of the trash is imported, from the JSON or from trash/.
    for (const title of trashed)
      expect(thoughtsOf(items).filter((t) => t.thought.content.includes(title))).toEqual([]);
    const s = score(items, labels);
    console.log(describeScore(`Simplenote ${half} ${zip}`, s), s.wrong.length ? s.wrong : '');
    expect(thoughtsOf(items).filter((t) => !t.part || t.part.n === 1)).toHaveLength(labels.length);
    expect(s.lost).toBe(0);
    expect(s.titlesRight / s.notes).toBeGreaterThanOrEqual(0.95);
    expect(s.tagsRight / s.notes).toBeGreaterThanOrEqual(0.95);
  });
});
