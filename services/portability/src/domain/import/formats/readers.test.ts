import { describe, expect, it } from 'vitest';
import { MAX_CONTENT_LENGTH } from '@haven/contracts/thoughts';
import { ImportLimitError } from '../source';
import { dayOneReader } from './dayone-reader';
import { detectFormat } from './index';
import { keepReader } from './keep-reader';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';
import { notesReader } from './notes-reader';

const DAYONE = JSON.stringify(
  {
    metadata: { version: '1.0' },
    entries: [
      {
        uuid: 'A1',
        creationDate: '2023-01-02T04:30:00Z',
        timeZone: 'America/New_York',
        text: '# New year\n\nLate walk. #walks',
        tags: ['outdoors', 'Walks'],
        starred: true,
        photos: [{ md5: 'abc', type: 'jpeg' }],
      },
      { uuid: 'A2', creationDate: '2023-03-01T08:00:00Z', timeZone: 'Asia/Tokyo', text: 'No heading here' },
      { uuid: 'A3', creationDate: '2023-03-02T08:00:00Z', text: '' },
      { uuid: 'A4', creationDate: '2023-03-03T08:00:00Z', text: 'é'.repeat(3000) },
    ],
  },
  null,
  2,
);

describe('Day One', () => {
  it('streams entries with their zone’s day, tags and a skipped empty entry; photos are never read', async () => {
    const source = memorySource({ 'Journal.json': DAYONE, 'photos/abc.jpeg': 'binary' });
    expect(detectFormat(source.entries)).toBe(dayOneReader);
    const items = await readAll(dayOneReader, source);
    const [first, second, third] = thoughtsOf(items);
    expect(first!.thought).toMatchObject({
      title: 'New year',
      content: '# New year\n\nLate walk. #walks',
      date: '2023-01-02T04:30:00.000Z',
      localDate: '2023-01-01',
      tags: ['outdoors', 'Walks'],
      format: 'markdown',
    });
    // Day One titles an entry by its first line, heading or not.
    expect(second!.thought).toMatchObject({
      title: 'No heading here',
      content: 'No heading here',
      localDate: '2023-03-01',
    });
    expect(third!.thought.content).toBe('é'.repeat(3000));
    expect(problemsOf(items).map((p) => [p.file, p.outcome, p.reason])).toEqual([
      ['Journal.json', 'skipped', 'Entry 3: empty (photos and other media are not imported)'],
      ['photos/abc.jpeg', 'skipped', 'Not a note (image)'],
    ]);
    expect(items.map((i) => i.at)).toEqual(
      [0, 1, 2, 3, 4].map((n) => (n < 4 ? { entry: 0, item: n } : { entry: 1, item: 0 })),
    );
    expect(source.reads).toEqual(['Journal.json']);
  });

  it('fails a malformed journal at its line, after the entries before it', async () => {
    const broken = DAYONE.replace('"No heading here"', '"No heading here" oops');
    const items = await readAll(dayOneReader, memorySource({ 'Journal.json': broken }));
    expect(thoughtsOf(items)).toHaveLength(1);
    const [problem] = problemsOf(items);
    expect(problem).toMatchObject({ outcome: 'failed' });
    expect(problem!.line).toBe(broken.split('\n').findIndex((l) => l.includes('oops')) + 1);
  });

  it('lets a limit error of the source fail the whole import', async () => {
    const source = memorySource({ 'Journal.json': DAYONE });
    source.stream = (name) => memorySource({ [name]: DAYONE }).stream(name, 100);
    await expect(readAll(dayOneReader, source)).rejects.toBeInstanceOf(ImportLimitError);
  });
});

describe('Google Keep', () => {
  const note = (fields: object) =>
    JSON.stringify({ color: 'DEFAULT', isPinned: false, isArchived: false, ...fields });
  it('reads text and checklists, labels and creation time; trash and HTML copies are skipped', async () => {
    const source = memorySource({
      'Takeout/Keep/Groceries.json': note({
        title: 'Groceries',
        listContent: [
          { text: 'Milk', isChecked: true },
          { text: 'Eggs', isChecked: false },
        ],
        labels: [{ name: 'Home' }, { name: 'home' }],
        createdTimestampUsec: 1_700_000_000_000_000,
        isTrashed: false,
      }),
      'Takeout/Keep/Groceries.html': '<html></html>',
      'Takeout/Keep/Idea.json': note({
        title: '',
        textContent: 'Just a thought #idea',
        userEditedTimestampUsec: 1_600_000_000_000_000,
      }),
      'Takeout/Keep/Old.json': note({ title: 'Old', textContent: 'gone', isTrashed: true }),
      'Takeout/Keep/Broken.json': '{\n  "title": "x",\n  oops\n}',
      'Takeout/Keep/Labels.txt': 'Home\n',
      'Takeout/Keep/photo.png': 'png',
    });
    expect(detectFormat(source.entries)).toBe(keepReader);
    const items = await readAll(keepReader, source);
    const [list, idea] = thoughtsOf(items);
    expect(list!.thought).toMatchObject({
      content: '# Groceries\n\n- [x] Milk\n- [ ] Eggs',
      title: 'Groceries',
      format: 'markdown',
      tags: ['Home'],
      date: '2023-11-14T22:13:20.000Z',
      localDate: '2023-11-14',
    });
    expect(list!.dateSource).toBe('metadata');
    expect(idea!.thought).toMatchObject({
      content: 'Just a thought #idea',
      title: null,
      format: 'text',
      tags: ['idea'],
    });
    expect(problemsOf(items).map((p) => [p.file.split('/').pop(), p.outcome, p.line])).toEqual([
      ['Groceries.html', 'skipped', undefined],
      ['Old.json', 'skipped', undefined],
      ['Broken.json', 'failed', 3],
      ['Labels.txt', 'skipped', undefined],
      ['photo.png', 'skipped', undefined],
    ]);
    expect(source.reads).not.toContain('Takeout/Keep/Groceries.html');
  });
});

describe('a folder of notes', () => {
  const long = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} ${'lorem ipsum '.repeat(45)}`).join(
    '\n\n',
  );
  const files = {
    'Notes/2021_02_26.txt': 'Morning pages.\nSecond line #morning',
    'Notes/2021.02.26 note.md': 'Dotted name',
    'Notes/2021-02-26 14.05 Walk.md': '# Walk\n\nAlong the river.',
    'Notes/Undated.md': 'No date anywhere',
    'Notes/Zoned.md':
      '---\nCreated At: 2023-01-01T23:30:00-05:00\nTags: [a, "#b"]\ncategory: creative\n---\nBody',
    'Notes/Long.md': long,
    'Notes/Broken.md': '---\ntitle: ok\nkey: value: other\n---\nBody',
    'Notes/Empty.md': '---\ntitle: Only this\n---\n\n',
    'Notes/picture.jpg': 'jpg',
    'Notes/.hidden.md': 'secret',
  };

  it('reads text and Markdown notes with their titles, dates from names and front matter', async () => {
    const source = memorySource(files);
    const items = await readAll(notesReader('notes'), source);
    const byFile = (name: string) => thoughtsOf(items).filter((t) => t.file === `Notes/${name}`);
    expect(byFile('2021_02_26.txt')[0]).toMatchObject({
      dateSource: 'file-name',
      thought: {
        content: '2021_02_26\n\nMorning pages.\nSecond line #morning',
        format: 'text',
        localDate: '2021-02-26',
        tags: ['morning'],
      },
    });
    expect(byFile('2021.02.26 note.md')[0]!.thought).toMatchObject({
      content: '# 2021.02.26 note\n\nDotted name',
      localDate: '2021-02-26',
    });
    expect(byFile('2021-02-26 14.05 Walk.md')[0]!.thought).toMatchObject({
      content: '# Walk\n\nAlong the river.',
      title: 'Walk',
      date: '2021-02-26T14:05:00.000Z',
    });
    expect(byFile('Undated.md')[0]).toMatchObject({
      dateSource: 'zip-time',
      thought: { localDate: '2020-05-05' },
    });
    expect(byFile('Zoned.md')[0]).toMatchObject({
      dateSource: 'metadata',
      thought: {
        localDate: '2023-01-01',
        date: '2023-01-02T04:30:00.000Z',
        tags: ['a', 'b'],
        category: 'creative',
      },
    });
    const parts = byFile('Long.md');
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(parts.map((p) => p.part)).toEqual(parts.map((_, i) => ({ n: i + 1, of: parts.length })));
    expect(parts.every((p) => p.thought.content.length <= MAX_CONTENT_LENGTH)).toBe(true);
    expect(parts[1]!.thought.content.startsWith(`# Long (part 2 of ${parts.length})\n\n`)).toBe(true);
    // Front matter YAML refuses is read line by line: the note is imported, the report says so.
    expect(byFile('Broken.md')[0]).toMatchObject({
      thought: { title: 'ok', content: '# ok\n\nBody' },
      note: expect.stringMatching(/^Line 3: The front matter is not valid YAML .*: read line by line$/),
    });
    const problems = problemsOf(items).map((p) => [p.file, p.outcome, p.line ?? null]);
    expect(problems).toEqual([
      ['Notes/Empty.md', 'skipped', null],
      ['Notes/picture.jpg', 'skipped', null],
      ['Notes/.hidden.md', 'skipped', null],
    ]);
    expect(source.reads).not.toContain('Notes/picture.jpg');
    expect(source.reads).not.toContain('Notes/.hidden.md');
  });

  it('puts a note with no date at all on the import day', async () => {
    const source = memorySource({ 'a.md': 'x' }, new Date(Number.NaN));
    const [item] = thoughtsOf(
      await readAll(notesReader('notes'), source, { now: new Date('2026-01-15T09:00:00Z') }),
    );
    expect(item).toMatchObject({ dateSource: 'import-day', thought: { localDate: '2026-01-15' } });
  });

  it('resumes with exactly the suffix of a full read', async () => {
    const full = await readAll(notesReader('notes'), memorySource(files));
    for (const [k, at] of full.map((i, k) => [k, i.at] as const)) {
      const source = memorySource(files);
      const resumed = await readAll(notesReader('notes'), source, { resume: at });
      expect(resumed).toEqual(full.slice(k));
      // Entries before the resumed one are never read.
      const before = Object.keys(files).slice(0, at.entry);
      expect(source.reads.filter((r) => before.includes(r))).toEqual([]);
    }
  });
});
