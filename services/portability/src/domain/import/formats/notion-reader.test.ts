import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportLimitError } from '../source';
import { detectFormat } from './index';
import { REAL } from './labelled.test-support';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';
import { notionReader } from './notion-reader';
import { corpusPresent } from '@haven/kit/corpus';

const ID = (n: number) => String(n).repeat(32).slice(0, 32);

/*
 * SYNTHETIC: written for this test in the shape of Notion's "Markdown & CSV" export (no real
 * Notion CSV is in the corpus): a page with a sub-page and an image, and a database `Tasks` whose
 * CSVs (`Tasks <id>.csv`, the view, and `Tasks <id>_all.csv`, every row) list three rows, one of
 * which has its page in `Tasks <id>/`.
 */
const TASKS_ALL =
  '\uFEFFName,Status,Tags,Created,Notes\n' +
  'Write report,Done,"work, writing","January 5, 2023 3:04 PM",\n' +
  'Call mum,Not started,family,"February 1, 2023",ring after 6\n' +
  '"Plan trip, maybe",,,,"multi\nline"\n';
const SYNTHETIC = {
  [`Journal ${ID(1)}.md`]: '# Journal\n\nFirst entry. #daily',
  [`Journal ${ID(1)}/Sub page ${ID(2)}.md`]: '# Sub page\n\nInside.',
  [`Journal ${ID(1)}/photo.png`]: 'png',
  [`Tasks ${ID(3)}.csv`]: TASKS_ALL.split('\n').slice(0, 3).join('\n'),
  [`Tasks ${ID(3)}_all.csv`]: TASKS_ALL,
  [`Tasks ${ID(3)}/Write report ${ID(4)}.md`]: '# Write report\n\nStatus: Done\n\nDraft by Friday.',
  [`Untitled ${ID(5)}.md`]: 'No heading, just text.',
};

describe('Notion', () => {
  it('detects a Notion export by the ids in its names, not as Joplin or a folder of notes', () => {
    expect(detectFormat(memorySource(SYNTHETIC).entries)).toBe(notionReader);
    expect(detectFormat(memorySource({ [`Export-abc/Page ${ID(1)}.md`]: '# Page' }).entries)).toBe(
      notionReader,
    );
    expect(
      detectFormat(memorySource({ 'Page.md': 'x', [`Other ${ID(1)}.md`]: 'y', 'c.md': 'z' }).entries)?.format,
    ).toBe('notes');
  });

  it('reads pages and database rows; a row with a page is one note with its properties', async () => {
    const source = memorySource(SYNTHETIC);
    const items = await readAll(notionReader, source);
    const notes = thoughtsOf(items).map((t) => t.thought);
    expect(notes.map((n) => [n.title, n.content, n.tags])).toEqual([
      ['Journal', '# Journal\n\nFirst entry. #daily', ['daily']],
      ['Sub page', '# Sub page\n\nInside.', []],
      [
        'Call mum',
        '# Call mum\n\nStatus: Not started\nTags: family\nCreated: February 1, 2023\nNotes: ring after 6',
        ['family'],
      ],
      ['Plan trip, maybe', '# Plan trip, maybe\n\nNotes: multi\nline', []],
      [
        'Write report',
        '# Write report\n\nStatus: Done\nTags: work, writing\nCreated: January 5, 2023 3:04 PM\n\nDraft by Friday.',
        ['work', 'writing'],
      ],
      ['Untitled', '# Untitled\n\nNo heading, just text.', []],
    ]);
    expect(notes[2]!.localDate).toBe('2023-02-01');
    expect(notes[4]).toMatchObject({ date: '2023-01-05T15:04:00.000Z', localDate: '2023-01-05' });
    expect(problemsOf(items).map((p) => [p.file, p.reason])).toEqual([
      [`Journal ${ID(1)}/photo.png`, 'Not a note (image)'],
      [`Tasks ${ID(3)}.csv`, `Not a note (the same database as Tasks ${ID(3)}_all.csv)`],
    ]);
  });

  it('fails a CSV it cannot parse at its line, and lets a limit error fail the import', async () => {
    const broken = { [`DB ${ID(6)}.csv`]: 'Name,Tags\nA,x\n"B,y\n', [`DB ${ID(6)}/A ${ID(7)}.md`]: '# A' };
    const items = await readAll(notionReader, memorySource(broken));
    expect(items.filter((i) => i.file.endsWith('.csv'))).toMatchObject([
      { kind: 'problem', outcome: 'failed' },
    ]);
    const source = memorySource({ [`DB ${ID(6)}.csv`]: 'Name\n' + 'row\n'.repeat(1000) });
    source.stream = (name) => memorySource({ [name]: 'Name\n' + 'row\n'.repeat(1000) }).stream(name, 100);
    await expect(readAll(notionReader, source)).rejects.toBeInstanceOf(ImportLimitError);
  });

  it.runIf(corpusPresent(REAL))('reads the real Notion page of the corpus', async () => {
    const name = 'Dyspepsia 5389002953cc46458768b37b378097e8.md';
    const source = memorySource({ [name]: readFileSync(path.join(REAL, 'other/notion-md', name)) });
    expect(detectFormat(source.entries)).toBe(notionReader);
    const [note, ...rest] = thoughtsOf(await readAll(notionReader, source));
    expect(rest).toEqual([]);
    expect(note!.thought).toMatchObject({ title: 'Dyspepsia', tags: [], format: 'markdown' });
    expect(note!.thought.content).toMatch(/^# Dyspepsia\n\nDyspepsia: SBA clue\n/);
  });
});
