import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { joplinReader } from './joplin-reader';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

/*
 * Joplin's tags on a real JEX export's items (../shared/corpora/import-real/joplin/notesnook-jex,
 * the members of a `.jex` tar, read in place, never copied). Labels are ours, by hand from the type
 * 5 (tag) and type 6 (note_id, tag_id) items.
 */

const JEX = path.resolve(
  import.meta.dirname,
  '../../../../../../../shared/corpora/import-real/joplin/notesnook-jex/03_10_2022',
);
const NAMES = readdirSync(JEX).sort();

/** TUNING half: looked at while building the join. Note id → its tags, Joplin's order (by name). */
const TUNING: Record<string, string[]> = {
  bb4137f438d24da090984da833424ece: ['hope', 'mine', 'welcome'], // "1. Welcome to Joplin!"
  '134b97356411423bb758910cb8028c42': [], // "Hello", a to-do
  '1026d571129b48ee9345e9775a9adc43': [], // "2. Importing and exporting notes"
};

/** HELD-OUT half: labelled the same way, never looked at while building; run at the end. */
const HELD_OUT: Record<string, string[]> = {
  eb2284ecfb564da6bf3e770381043d23: ['notes', 'sync', 'welcome'], // "3. Synchronising your notes"
  '6aa272273a794e4c885c36e86d9d145e': [], // "5. Joplin Privacy Policy"
  '866e20f8cd2e4155bea3c5aa1a3e7dd7': [], // "4. Tips"
};

/** The export zipped as its folder, its items in `order`. */
const exportOf = (order: string[]) =>
  memorySource(Object.fromEntries(order.map((n) => [`03_10_2022/${n}`, readFileSync(path.join(JEX, n))])));

async function tagsByNote(order: string[]) {
  const items = await readAll(joplinReader, exportOf(order));
  return new Map(thoughtsOf(items).map((t) => [t.file.slice(-35, -3), t.thought.tags]));
}

async function score(labels: Record<string, string[]>, order = NAMES) {
  const got = await tagsByNote(order);
  const wrong = Object.entries(labels).filter(
    ([id, tags]) => JSON.stringify(got.get(id)) !== JSON.stringify(tags),
  );
  return { right: 1 - wrong.length / Object.keys(labels).length, total: Object.keys(labels).length, wrong };
}

describe('Joplin tags on a real JEX export', () => {
  it('joins tags (type 5) and links (type 6) to their notes: tuning half', async () => {
    const tuning = await score(TUNING);
    console.log(
      `Joplin tuning (${tuning.total} notes): tags ${(tuning.right * 100).toFixed(1)}%`,
      tuning.wrong,
    );
    expect(tuning.right).toBeGreaterThanOrEqual(0.95);
  });

  it('whatever the order of the items: tags and links before or after the notes', async () => {
    const isNote = (n: string) => /^type_: 1$/m.test(readFileSync(path.join(JEX, n), 'utf8'));
    const notesFirst = [...NAMES.filter(isNote), ...NAMES.filter((n) => !isNote(n))];
    const notesLast = [...NAMES.filter((n) => !isNote(n)), ...NAMES.filter(isNote)];
    const reversed = [...NAMES].reverse();
    const expected = await tagsByNote(NAMES);
    for (const order of [notesFirst, notesLast, reversed]) expect(await tagsByNote(order)).toEqual(expected);
  });

  it('reports tags, links, notebooks and resources as not notes, and resumes with the tags known', async () => {
    const items = await readAll(joplinReader, exportOf(NAMES));
    expect(thoughtsOf(items)).toHaveLength(6);
    expect(problemsOf(items).filter((p) => p.reason.includes('a tag)'))).toHaveLength(5);
    expect(problemsOf(items).filter((p) => p.reason.includes('link of a tag'))).toHaveLength(6);
    const last = thoughtsOf(items).at(-1)!;
    const resumed = await readAll(joplinReader, exportOf(NAMES), { resume: last.at });
    expect(resumed).toEqual(items.slice(items.indexOf(last)));
  });

  it('reads each large note once: the first pass reads only items small enough to be tags or links', async () => {
    const big = `Big\n\n${'word '.repeat(3000)}\n\nid: ${'a'.repeat(32)}\ntype_: 1`;
    const source = memorySource({
      [`${'c'.repeat(32)}.md`]: `id: ${'c'.repeat(32)}\nnote_id: ${'a'.repeat(32)}\ntag_id: ${'b'.repeat(32)}\ntype_: 6`,
      [`${'a'.repeat(32)}.md`]: big,
      [`${'b'.repeat(32)}.md`]: `Later\n\nid: ${'b'.repeat(32)}\ntype_: 5`,
      'notes.jex': 'tar',
    });
    const items = await readAll(joplinReader, source);
    const parts = thoughtsOf(items);
    expect(parts.length).toBeGreaterThan(0);
    for (const part of parts) expect(part.thought.tags).toEqual(['Later']);
    expect(source.reads.filter((r) => r.startsWith('a'))).toHaveLength(1);
    expect(problemsOf(items).at(-1)).toMatchObject({ file: 'notes.jex', outcome: 'skipped' });
  });

  it('joins tags to their notes: held-out half', async () => {
    const held = await score(HELD_OUT);
    console.log(`Joplin held out (${held.total} notes): tags ${(held.right * 100).toFixed(1)}%`, held.wrong);
    expect(held.right).toBeGreaterThanOrEqual(0.95);
  });
});
