import { describe, expect, it } from 'vitest';
import { ImportLimitError } from '../source';
import { detectFormat } from './index';
import { headerOf } from './jrnl-text';
import { jrnlReader } from './jrnl-reader';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

const JOURNAL = `[2013-06-09 15:39] My first entry.
Everything is alright @home

[2013-06-10 15:40] Life is good. *
But I'm better. Met @Dan at @the-lake #outdoors.
[1] a footnote, not an entry
[2013-06-10]no space after the bracket, still text
  [2013-06-11 09:00] indented, still text

[2013-06-12 09:00 PM] Evening, with jrnl's 12-hour clock.
[2013-06-13 10:11:12 AM] Only a title, its seconds too.
`;

const lines = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('jrnl', () => {
  it('reads a plain journal: one thought per entry, title above body, dated as written, @tags', async () => {
    const source = memorySource({ 'journal.txt': JOURNAL });
    expect(detectFormat(source.entries)).toBe(jrnlReader);
    const items = await readAll(jrnlReader, source);
    expect(problemsOf(items)).toEqual([]);
    const [first, second, evening, short] = thoughtsOf(items);
    expect(first).toMatchObject({
      dateSource: 'metadata',
      thought: {
        title: 'My first entry.',
        content: 'My first entry.\n\nEverything is alright @home',
        date: '2013-06-09T15:39:00.000Z',
        localDate: '2013-06-09',
        tags: ['home'],
        format: 'text',
        category: 'personal',
      },
    });
    // Starred: the star leaves the title (thoughts have none); body lines that only look like an
    // entry's first line stay in the body.
    expect(second!.thought).toMatchObject({
      title: 'Life is good.',
      content:
        "Life is good.\n\nBut I'm better. Met @Dan at @the-lake #outdoors.\n[1] a footnote, not an entry\n" +
        '[2013-06-10]no space after the bracket, still text\n  [2013-06-11 09:00] indented, still text',
      tags: ['Dan', 'the-lake', 'outdoors'],
    });
    expect(evening!.thought).toMatchObject({ date: '2013-06-12T21:00:00.000Z', localDate: '2013-06-12' });
    expect(short!.thought).toMatchObject({
      title: 'Only a title, its seconds too.',
      content: 'Only a title, its seconds too.',
      date: '2013-06-13T10:11:12.000Z',
    });
    expect(items.map((i) => i.at)).toEqual([0, 1, 2, 3].map((item) => ({ entry: 0, item })));
  });

  it('tells entries from text that looks almost like one', () => {
    expect(headerOf('[2024-01-31 09:00] Title')).toMatchObject({
      kind: 'entry',
      title: 'Title',
      starred: false,
    });
    expect(headerOf('[2024-01-31 09:00]')).toMatchObject({ kind: 'entry', title: '' });
    expect(headerOf('[2024-01-31 12:00 AM] Midnight *')).toMatchObject({
      kind: 'entry',
      date: { date: '2024-01-31T00:00:00.000Z' },
      title: 'Midnight',
      starred: true,
    });
    expect(headerOf('[31.01.2024 09:00] Day first, as dates are read elsewhere')).toMatchObject({
      date: { localDate: '2024-01-31' },
    });
    for (const text of [
      '[1] footnote',
      '[123456789] a number',
      '[x] done',
      '[2024-01-31 09:00]x',
      ' [2024-01-31 09:00] indented',
      '[10:30] a time alone, outside a folder journal',
      `[${'2'.repeat(60)}] long`,
      '',
    ])
      expect(headerOf(text), text).toBeNull();
    for (const stamp of ['2024-02-30 09:00', '2024-01-31 25:00', '2024-01-31 13:00 PM', '2019-07 14:23'])
      expect(headerOf(`[${stamp}] Title`), stamp).toEqual({ kind: 'bad', stamp });
  });

  it('fails a malformed entry at its line and text before the first entry, and reads on', async () => {
    const text =
      'Notes to self\nbefore any entry\n[2024-01-30 09:00] Good\nbody\n' +
      '[2024-02-30 09:00] Bad day\nlost with it\n[2024-01-31 09:00] Also good\n';
    const items = await readAll(jrnlReader, memorySource({ 'work.journal': text }));
    expect(thoughtsOf(items).map((t) => t.thought.title)).toEqual(['Good', 'Also good']);
    expect(problemsOf(items).map((p) => [p.outcome, p.line, p.reason])).toEqual([
      ['failed', 1, expect.stringMatching(/^Lines 1–2: text before the first entry/)],
      [
        'failed',
        lines(text, 'Bad day'),
        'Entry 2: "[2024-02-30 09:00]" is not a date, so the entry was not imported',
      ],
    ]);
    expect(items.map((i) => i.kind)).toEqual(['problem', 'thought', 'problem', 'thought']);
  });

  it('reads a file with no entry as one note, and an empty one as skipped', async () => {
    const items = await readAll(
      jrnlReader,
      memorySource({ 'journal.txt': 'Groceries\nmilk @errands', 'jrnl.txt': '\n\n' }),
    );
    expect(thoughtsOf(items)).toMatchObject([
      {
        dateSource: 'zip-time',
        thought: { title: 'Groceries', content: 'Groceries\n\nmilk @errands', tags: ['errands'] },
      },
    ]);
    expect(problemsOf(items)).toMatchObject([{ file: 'jrnl.txt', reason: 'The journal is empty' }]);
  });

  it('reads a folder journal: YYYY/MM/DD.txt, the day from the path as jrnl reads it', async () => {
    const source = memorySource({
      'journal/2020/08/29.txt':
        '[2020-08-29 11:11:00 AM] Entry the first.\nLorem @ipsum.\n\n[2020-08-30 02:00:00 PM] Wrong day in the stamp.',
      'journal/2020/08/31.txt': '[14:32] A time alone *\n',
      'journal/2020/09/01.txt': 'No stamp at all',
      'journal/.DS_Store': 'x',
    });
    expect(detectFormat(source.entries)).toBe(jrnlReader);
    const items = await readAll(jrnlReader, source);
    expect(thoughtsOf(items).map((t) => [t.thought.title, t.thought.date, t.dateSource])).toEqual([
      ['Entry the first.', '2020-08-29T11:11:00.000Z', 'metadata'],
      ['Wrong day in the stamp.', '2020-08-29T14:00:00.000Z', 'metadata'],
      ['A time alone', '2020-08-31T14:32:00.000Z', 'metadata'],
      ['No stamp at all', '2020-09-01T12:00:00.000Z', 'file-name'],
    ]);
    expect(problemsOf(items)).toMatchObject([{ file: 'journal/.DS_Store', outcome: 'skipped' }]);
  });

  it('reads the JSON export; a malformed entry fails at its line', async () => {
    const json = JSON.stringify(
      {
        tags: { '@idea': 1 },
        entries: [
          {
            title: 'I have an @Idea:',
            body: '(1) write a command line @journal\n(2) ???',
            date: '2013-04-09',
            time: '15:39',
            tags: ['@idea', '@journal', '@extra'],
            starred: true,
          },
          { title: 'Bad', body: '', date: '2013-13-01', time: '10:00', tags: [], starred: false },
          { title: 'No body', body: 42, date: '2013-06-10', time: '10:00' },
          { title: '', body: '', date: '2013-06-11', time: '10:00' },
          'not an entry',
        ],
      },
      null,
      2,
    );
    const source = memorySource({ 'jrnl-export.json': json });
    expect(detectFormat(source.entries)).toBe(jrnlReader);
    const items = await readAll(jrnlReader, source);
    expect(thoughtsOf(items)).toMatchObject([
      {
        thought: {
          title: 'I have an @Idea:',
          content: 'I have an @Idea:\n\n(1) write a command line @journal\n(2) ???',
          date: '2013-04-09T15:39:00.000Z',
          tags: ['Idea', 'journal', 'extra'],
        },
      },
    ]);
    expect(problemsOf(items).map((p) => [p.outcome, p.line, p.reason])).toEqual([
      ['failed', lines(json, '"Bad"') - 1, 'Entry 2: "2013-13-01 10:00" is not a date'],
      ['failed', lines(json, '"No body"') - 1, 'Entry 3: body is not text'],
      ['skipped', lines(json, '"2013-06-11"') - 3, 'Entry 4: empty'],
      ['failed', lines(json, 'not an entry'), 'Entry 5: not an entry'],
    ]);
  });

  it('fails a JSON that is not an export at its line, and an entry larger than a note alone', async () => {
    const big = `[2024-01-30 09:00] Big\n${'word '.repeat(300_000)}\n[2024-01-31 09:00] Small\nbody`;
    const items = await readAll(
      jrnlReader,
      memorySource({
        'jrnl.json': '{"entries": [\n{"title": "Kept", "date": "2024-01-01"},\noops',
        'big.journal': big,
      }),
    );
    expect(problemsOf(items).map((p) => [p.file, p.line, p.reason])).toEqual([
      ['jrnl.json', 3, expect.stringMatching(/^The file is not valid JSON/)],
      ['big.journal', 1, 'Entry 1: larger than 1 MB, the limit of one note; it was not imported'],
    ]);
    expect(thoughtsOf(items).map((t) => [t.file, t.thought.title])).toEqual([
      ['jrnl.json', 'Kept'],
      ['big.journal', 'Small'],
    ]);
  });

  it('lets a limit error of the source fail the whole import', async () => {
    const source = memorySource({ 'journal.txt': '[2024-01-31 09:00] x\n'.repeat(10) });
    const stream = source.stream;
    source.stream = (name) => stream(name, 100);
    await expect(readAll(jrnlReader, source)).rejects.toBeInstanceOf(ImportLimitError);
  });

  it('resumes with exactly the suffix of a full read', async () => {
    const files = {
      'journal.txt': JOURNAL,
      'b.journal': 'before\n[2024-02-30 09:00] bad\n[2024-01-31 09:00] ok',
    };
    const full = await readAll(jrnlReader, memorySource(files));
    for (const [k, item] of full.entries())
      expect(await readAll(jrnlReader, memorySource(files), { resume: item.at })).toEqual(full.slice(k));
  });
});
