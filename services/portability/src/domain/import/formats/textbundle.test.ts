import { describe, expect, it } from 'vitest';
import { detectFormat } from './index';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

/** Bear and Ulysses TextBundles: `Note.textbundle/` holding `text.md`, `info.json` and `assets/`. */

const bear = (created: string) =>
  JSON.stringify({
    version: 2,
    type: 'net.daringfireball.markdown',
    creatorIdentifier: 'net.shinyfrog.bear',
    'net.shinyfrog.bear': { creationDate: created, modificationDate: '2024-01-01T00:00:00Z' },
  });

async function importOf(files: Record<string, string>) {
  const source = memorySource(files);
  const reader = detectFormat(source.entries);
  return { format: reader?.format, items: await readAll(reader!, source), reads: source.reads };
}

describe('TextBundles', () => {
  it('are detected, titled by their first line and dated by info.json', async () => {
    const { format, items, reads } = await importOf({
      'Export/Walk.textbundle/text.md': '# Walk by the river\n\nCold. #walk',
      'Export/Walk.textbundle/info.json': bear('2019-03-04T08:30:00Z'),
      'Export/Walk.textbundle/assets/photo.jpg': 'jpg',
      'Export/Shopping.textbundle/text.markdown': 'Shopping list\nBread',
      'Export/Shopping.textbundle/info.json': '{"version": 2}',
      'Export/Sheet.textbundle/text.md': '## A Ulysses sheet\n\nText.',
      'Export/Sheet.textbundle/info.json': 'not json',
    });
    expect(format).toBe('textbundle');
    const thoughts = thoughtsOf(items);
    expect(
      thoughts.map((t) => [t.thought.title, t.thought.content, t.thought.localDate, t.dateSource]),
    ).toEqual([
      ['Walk by the river', '# Walk by the river\n\nCold. #walk', '2019-03-04', 'metadata'],
      ['Shopping list', 'Shopping list\n\nBread', '2020-05-05', 'zip-time'],
      ['A Ulysses sheet', '## A Ulysses sheet\n\nText.', '2020-05-05', 'zip-time'],
    ]);
    expect(thoughts[0]!.thought.tags).toEqual(['walk']);
    // info.json is read (the one file beside a note that is), never listed as a note; assets are not read.
    expect(reads).not.toContain('Export/Walk.textbundle/assets/photo.jpg');
    expect(problemsOf(items).map((p) => [p.file, p.outcome])).toEqual([
      ['Export/Walk.textbundle/info.json', 'skipped'],
      ['Export/Walk.textbundle/assets/photo.jpg', 'skipped'],
      ['Export/Shopping.textbundle/info.json', 'skipped'],
      ['Export/Sheet.textbundle/info.json', 'skipped'],
    ]);
  });

  it('reads a zip of one bundle (a TextPack unzipped and zipped again)', async () => {
    const { format, items } = await importOf({
      'Trip.textbundle/text.md': '# Trip\n\nPacked.',
      'Trip.textbundle/info.json': JSON.stringify({ created: 1_262_347_200 }),
    });
    expect(format).toBe('textbundle');
    expect(thoughtsOf(items)).toMatchObject([
      { thought: { title: 'Trip', localDate: '2010-01-01' }, dateSource: 'metadata' },
    ]);
  });

  it('keeps front matter and its title before the first line', async () => {
    const { items } = await importOf({
      'A.textbundle/text.md': '---\ntitle: From front matter\ncreated: 2001-02-03\n---\nFirst line',
    });
    expect(thoughtsOf(items)).toMatchObject([
      {
        thought: {
          title: 'From front matter',
          content: '# From front matter\n\nFirst line',
          localDate: '2001-02-03',
        },
      },
    ]);
  });

  it('titles an empty bundle’s text by its folder, and skips it as empty', async () => {
    const { items } = await importOf({ 'Empty.textbundle/text.md': '\n\n' });
    expect(problemsOf(items)).toMatchObject([{ outcome: 'skipped', reason: expect.stringMatching(/empty/) }]);
  });

  it('names a TextPack inside the zip as one to upload on its own', async () => {
    const { format, items } = await importOf({
      'notes/a.md': '# A\n\nText.',
      'notes/Packed.textpack': 'PK',
    });
    expect(format).toBe('notes');
    expect(problemsOf(items)).toMatchObject([
      {
        file: 'notes/Packed.textpack',
        outcome: 'skipped',
        reason: 'Not a note (TextPack, a zipped TextBundle: upload it on its own)',
      },
    ]);
  });

  it('is a folder of notes when bundles are the fewer', async () => {
    const { format, items } = await importOf({
      'a.md': '# A\n\nText.',
      'b.md': '# B\n\nText.',
      'c.md': '# C\n\nText.',
      'One.textbundle/text.md': 'Plain first line\nAnd more.',
    });
    expect(format).toBe('notes');
    expect(thoughtsOf(items).at(-1)!.thought.title).toBe('Plain first line');
  });
});
