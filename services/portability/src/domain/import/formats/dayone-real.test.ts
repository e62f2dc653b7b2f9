import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportItem } from '../source';
import { dayOneReader, entryTitle, unescapeDayOne, withoutMedia } from './dayone-reader';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

/*
 * Day One on real exports (../shared/corpora/import-real/dayone, read in place, never copied; its
 * SOURCES.md names each file). Every label below is ours, by hand from reading the files' `text`,
 * `tags`, `creationDate`, `timeZone` and `location`: the title is the first line the user wrote
 * (never a photo line) as words, the tags are the entry's `tags`. A title ending in `…` is labelled
 * by its start (the first line is a long paragraph).
 */

const REAL = path.resolve(import.meta.dirname, '../../../../../../../shared/corpora/import-real/dayone');

interface Label {
  title: string;
  tags: string[];
}

/** TUNING half: looked at while building the reader. Keys: `<file>#<entry number>`. */
const TUNING: Record<string, Label> = {
  'ergebnis/Journal.json#1': {
    title: 'Luckily for Alice, the little magic bottle had now had its full effect…',
    tags: ['diary', 'Pizza'],
  },
  'ergebnis/Journal.json#2': {
    title: 'Photo, 1 January 2008, Cannon Beach',
    tags: ['diary', 'Test', 'Pizza'],
  },
  'ergebnis/Journal.json#3': {
    title: 'Lady Liberty, New York City, NY',
    tags: ['City', 'Pizza', 'Test', 'diary', 'Architecture'],
  },
  'ergebnis/Journal.json#4': {
    title: 'Notes from the Daily Commute',
    tags: ['Pizza', 'test2', 'diary', 'Photography', 'Test'],
  },
  'ergebnis/Journal.json#5': {
    title: "This photo is amazing. That's all. I'll never climb this mountain…",
    tags: ['Pizza', 'Test', 'diary', 'Exercise'],
  },
  'ergebnis/Journal.json#6': {
    title: 'Harvest time. The colors... gorgeous.…',
    tags: ['Pizza', 'Test', 'diary', 'Fall'],
  },
  'ergebnis/Journal.json#7': {
    title: "Jessa and Aldo's wedding was, well, great.…",
    tags: ['Pizza', 'test2', 'diary', 'Test', 'Weddings'],
  },
  'ergebnis/Journal.json#8': {
    title: 'Plans for Our Trip to Hawaii',
    tags: ['diary', 'Test', 'Vacation', 'Tickets', 'Island', 'tag', 'Pizza', 'Travel', 'test2', 'newtag'],
  },
  'ergebnis/Journal.json#9': {
    title: 'I love crunching the leaves.…',
    tags: ['Autumn', 'Pizza', 'Test', 'diary', 'Fall'],
  },
  'ergebnis/Journal.json#10': {
    title: 'Some recipes for Thanksgiving:',
    tags: ['Recipes', 'Pizza', 'Holidays', 'diary', 'Test'],
  },
  'ergebnis/Journal.json#11': { title: 'To Do Tomorrow', tags: ['diary', 'Test', 'Pizza'] },
  'ergebnis/Journal.json#12': {
    title: 'At this the Queen of the Mice stuck her head out…',
    tags: ['Pizza', 'Test', 'diary', 'Food'],
  },
  'ergebnis/Journal.json#13': { title: 'Having lunch', tags: ['diary', 'Test', 'Pizza'] },
  'ergebnis/Journal.json#14': {
    title: "The Martin's down the street had a wedding for their daughter.…",
    tags: ['Pizza', 'Test', 'diary', 'Weddings'],
  },
  'ergebnis/Journal.json#15': {
    title: "Hey. We're in Hawaii.…",
    tags: ['Pizza', 'Test', 'diary', 'Fruit', 'Travel'],
  },
  'ergebnis/Journal.json#16': {
    title: 'My favorite book',
    tags: ['Pizza', 'Novels', 'diary', 'Reading', 'Test'],
  },
  'ergebnis/Journal.json#17': {
    title: 'Shots on my Commute',
    tags: ['Pizza', 'Test', 'diary', 'Architecture'],
  },
  'ergebnis/Journal.json#18': { title: 'Shots on my Commute', tags: ['diary', 'Architecture', 'Pizza'] },
  'ergebnis/Journal.json#19': {
    title: 'Turkeys are otherworldly, strangely beautiful creatures.…',
    tags: ['Pizza', 'Holidays', 'diary', 'Test'],
  },
  'ergebnis/Journal.json#20': {
    title: 'Turkeys are otherworldly, strangely beautiful creatures.…',
    tags: ['diary', 'Holidays', 'Pizza'],
  },
  'ergebnis/Journal.json#21': {
    title: 'Ah, yeah... Time for some football at Rice-Eccles Stadium.…',
    tags: ['Pizza', 'Sports', 'diary', 'Test'],
  },
  'ergebnis/Journal.json#22': {
    title: 'I went stargazing last night.',
    tags: ['Stars', 'Pizza', 'diary', 'Astronomy', 'Test'],
  },
  'ergebnis/Journal.json#23': {
    title: '"Perhaps you have heart disease," said the Tin Woodman.',
    tags: ['Instagram', 'Pizza', 'Day One', 'diary', 'Test'],
  },
  'ergebnis/Journal.json#24': {
    title: 'Played Onitama with Kris at MD Headquarters.…',
    tags: ['Board Games', 'Pizza', 'diary', 'Test'],
  },
  'ergebnis/Journal.json#25': { title: 'The Dilemma', tags: ['Novels', 'Pizza', 'diary', 'Test'] },
  'ergebnis/Journal.json#26': {
    title: 'Things are getting festive. Love this time of year.…',
    tags: ['Pizza', 'Holidays', 'diary', 'Test'],
  },
  'ergebnis/Journal.json#27': {
    title: "I love my garden. The whole act of growing my own food—selecting this year's crop…",
    tags: ['Pizza', 'Garden', 'diary', 'Test'],
  },
  'bsingr/demo.json#1': { title: 'Initial entry', tags: [] },
  'bsingr/demo.json#2': { title: 'Second entry', tags: [] },
  'bsingr/demo.json#3': { title: 'Third entry with double escapes', tags: [] },
};

/** HELD-OUT half: labelled the same way, never looked at while building; run at the end. */
const HELD_OUT: Record<string, Label> = {
  'ergebnis/Journal.json#28': {
    title: "'Oh, you foolish Alice!' she answered herself.…",
    tags: ['Novels', 'Pizza', 'diary', 'Test', 'Quotes'],
  },
  'ergebnis/Journal.json#29': {
    title: 'Does the all-contributed and all-receptive ocean alluringly spread forth…',
    tags: ['Pizza', 'Photography', 'diary', 'Test', 'Train'],
  },
  'ergebnis/Journal.json#30': { title: 'Flamingoes are funny.', tags: ['Pizza', 'Test', 'diary', 'Birds'] },
  'ergebnis/Journal.json#31': {
    title: 'I love this state!',
    tags: ['Nature', 'Pizza', 'Test', 'diary', 'Travel'],
  },
  'ergebnis/Journal.json#32': {
    title: 'I was reading the Wizard of Oz last night, and came across this passage',
    tags: ['Pizza', 'Novels', 'diary', 'Reading', 'Test'],
  },
  'ergebnis/Journal.json#33': {
    title: "Trying to get healthier with my eating. I'll keep doing this…",
    tags: ['Pizza', 'Test', 'diary', 'Health', 'Food'],
  },
  'ergebnis/Journal.json#34': {
    title: 'Sola and I had entered a building upon the front of the city…',
    tags: ['Pizza', 'Novels', 'diary', 'Reading', 'Test'],
  },
  'ergebnis/Journal.json#35': {
    title: 'Over the rainbow',
    tags: ['Pizza', 'Novels', 'diary', 'Reading', 'Test'],
  },
  'ergebnis/Journal.json#36': {
    title: 'Tried out a VR system yesterday for the first time at work yesterday.…',
    tags: ['Video games', 'Pizza', 'Test', 'diary'],
  },
  'ergebnis/Journal.json#37': {
    title:
      'Did a produce inspection recently. The crop is coming along nicely and should be ready for harvest.',
    tags: ['Pizza', 'Garden', 'diary', 'Test'],
  },
  'ergebnis/Journal.json#38': {
    title: 'Fantastic trip to New York. We caught a concert…',
    tags: ['Pizza', 'Test', 'diary', 'Architecture', 'Travel'],
  },
  'ergebnis/Journal.json#39': {
    title: 'Summer produce is the best. Love the taste and colors—a sensual feast.',
    tags: ['Pizza', 'Test', 'diary', 'Food'],
  },
  'ergebnis/Journal.json#40': {
    title: 'I love reading.',
    tags: ['Pizza', 'Novels', 'diary', 'Reading', 'Test'],
  },
  'ergebnis/Journal.json#41': {
    title: 'I went to Sonoma recently for a business trip and shot this photo of some grapes. Yum.',
    tags: ['Wine', 'Pizza', 'Test', 'diary', 'Drinks'],
  },
  'ergebnis/Journal.json#42': {
    title: 'I neeeeeeeed Italian food. Need. I took this shot before I ate this food. Amazing.',
    tags: ['Pizza', 'Test', 'diary', 'Food'],
  },
  'ergebnis/Journal.json#43': {
    title: 'Day One Markdown Syntax',
    tags: ['Markdown', 'Pizza', 'Test', 'diary', 'Rich text'],
  },
  'ergebnis/Journal.json#44': { title: 'Test', tags: ['diary', 'Test', 'Pizza'] },
  'ergebnis/Journal.json#45': {
    title: 'It did so indeed, and much sooner than she had expected…',
    tags: ['Pizza', 'Test', 'diary', 'Cars', 'Travel'],
  },
  'ergebnis/Journal.json#46': { title: 'Snow day!', tags: ['Pizza', 'Test', 'diary', 'Snow'] },
  'ergebnis/Journal.json#47': { title: 'Day One on iPad!', tags: ['diary', 'Test', 'Pizza'] },
  'ergebnis/Journal.json#48': { title: 'Header 1', tags: ['diary', 'Test', 'Pizza'] },
  'ergebnis/Journal.json#49': {
    title: 'RV show',
    tags: ['Conventions', 'Pizza', 'diary', 'Test', 'Testing', 'RV'],
  },
  'ergebnis/Journal.json#50': {
    title: 'A recent family conversation on the train',
    tags: ['Pizza', 'Test', 'diary', 'Train', 'Testing'],
  },
  'ergebnis/Journal.json#51': { title: 'Trip to New York', tags: ['Pizza', 'diary', 'Testing', 'Travel'] },
  'ergebnis/Journal.json#52': { title: 'Summer nights!', tags: ['Testing'] },
  'ergebnis/Journal.json#53': {
    title: 'In the world of my birth I never had drawn a shaft…',
    tags: ['Testing'],
  },
  'ergebnis/Journal.json#54': {
    title:
      "Here are some aerial shots from Rich's plane. Loved the fly over the town center. Such a unique view of the area.",
    tags: ['Pizza', 'Flying', 'diary', 'Test', 'Testing'],
  },
  'pkamppur/demo.json#1': { title: 'Initial entry', tags: [] },
  'pkamppur/demo.json#3': { title: 'Third entry with double escapes', tags: [] },
  'pkamppur/demo.json#5': { title: 'Fourth Test Journal Entry', tags: [] },
};

const FILES = ['ergebnis/Journal.json', 'bsingr/demo.json', 'pkamppur/demo.json'];

const runs = new Map<string, Promise<ImportItem[]>>();
/** A corpus journal read as the zip of a Day One export (the journal at its root), once. */
function run(file: string): Promise<ImportItem[]> {
  if (!runs.has(file))
    runs.set(
      file,
      readAll(dayOneReader, memorySource({ 'Journal.json': readFileSync(path.join(REAL, file)) })),
    );
  return runs.get(file)!;
}

/** The first thought of entry `n` (items carry the entry number in their problem reasons only). */
async function entry(file: string, n: number) {
  const items = await run(file);
  // Each entry's items follow each other; an entry's first item is a thought or its problem.
  const starts: ImportItem[][] = [];
  for (const item of items) {
    const reason = item.kind === 'problem' ? /^Entry (\d+):/.exec(item.reason) : null;
    if (item.kind === 'thought' && (item.part?.n ?? 1) === 1) starts.push([item]);
    else if (reason && Number(reason[1]) > starts.length) starts.push([item]);
    else starts[starts.length - 1]?.push(item);
  }
  return starts[n - 1]!;
}

const titleMatches = (title: string | null, label: string) =>
  label.endsWith('…') ? (title ?? '').startsWith(label.slice(0, -1)) : title === label;

/** Titles and tags right, over labels; what was wrong, for the log. */
async function score(labels: Record<string, Label>) {
  let titles = 0;
  let tags = 0;
  const wrong: string[] = [];
  for (const [key, label] of Object.entries(labels)) {
    const [file, n] = key.split('#') as [string, string];
    const thought = (await entry(file, Number(n))).find((i) => i.kind === 'thought');
    const got = thought?.kind === 'thought' ? thought.thought : null;
    if (got && titleMatches(got.title, label.title)) titles++;
    else wrong.push(`${key} title ${JSON.stringify(got?.title)}`);
    if (got && JSON.stringify(got.tags) === JSON.stringify(label.tags)) tags++;
    else wrong.push(`${key} tags ${JSON.stringify(got?.tags)}`);
  }
  const total = Object.keys(labels).length;
  return { titles: titles / total, tags: tags / total, total, wrong };
}

/** Text outside code (fenced blocks and inline code spans), where an escape is Day One's, not the user's. */
const outsideCode = (content: string) =>
  content
    .split(/^```[^\n]*\n[\s\S]*?^```/m)
    .join('\n')
    .replace(/`[^`\n]*`/g, '');

/** Day One's escapes of prose punctuation (`\.`, `\!`, `\-`, `\(`, `\)`, `\/`, `\#`) left in a text. */
const ESCAPE = /\\[.!\-()/#]/g;
const PHOTO = /dayone-moment:/;

async function leftovers() {
  let escapes = 0;
  let photoTitles = 0;
  let photoTexts = 0;
  for (const file of FILES)
    for (const t of thoughtsOf(await run(file))) {
      escapes += outsideCode(t.thought.content).match(ESCAPE)?.length ?? 0;
      escapes += t.thought.title?.match(ESCAPE)?.length ?? 0;
      if (PHOTO.test(t.thought.title ?? '') || t.thought.title?.startsWith('![')) photoTitles++;
      if (PHOTO.test(t.thought.content)) photoTexts++;
    }
  return { escapes, photoTitles, photoTexts };
}

describe('Day One on real exports', () => {
  it('keeps the text the user wrote: escapes undone, structure kept, photos out', async () => {
    const [love] = await entry('ergebnis/Journal.json', 31);
    expect(love).toMatchObject({ kind: 'thought' });
    const content = love!.kind === 'thought' ? love!.thought.content : '';
    expect(content).toMatch(
      /^# I love this state!\nFrom the red rocks to the snow-topped mountains, Utah is amazing\. Yet, I take it for granted\./,
    );
    expect(content).toContain('state!');

    const [hawaii] = await entry('ergebnis/Journal.json', 8);
    expect(hawaii!.kind === 'thought' && hawaii!.thought.content).toBe(
      [
        '# Plans for Our Trip to Hawaii',
        '',
        "We'll be heading to Hawaii next summer!",
        '',
        '# Here are a few things to get done between now and then:',
        '',
        '- [ ] Buy ticketsc',
        '- [X] Book hotels',
        '- [ ] Finalize daily itineraries',
        '- [X] Pack bags (see below)',
        '',
        "## Kids' Stuff",
        '',
        '- [ ] Clothes for two weeks',
        '- [ ] Two swimming suits',
        '- [ ] Books',
        '- [ ] Movies loaded on their devices',
        '- [ ] Snack packs for the flight',
        '',
        "# We're really looking forward to this!",
        '',
        '#tag.',
      ].join('\n'),
    );

    const [todo] = await entry('ergebnis/Journal.json', 11);
    expect(todo!.kind === 'thought' && todo!.thought.content).toContain(
      "# To Do Tomorrow\n- [x] I'm detecting an unusual microwave signature in the automatic shock blaster.\n- [x] We need to de-magnetize the plutonium scrambler.\n- [ ] We need to disentangle",
    );

    const [syntax] = await entry('ergebnis/Journal.json', 43);
    const markdown = syntax!.kind === 'thought' ? syntax!.thought.content : '';
    // Day One escapes inside code too: `\\` in a code span is the user's one backslash.
    expect(markdown).toContain('You can include literal backticks like `\\` this`` .');
    expect(markdown).toContain('```\nPreformatted text block using a tab\\.\n```');
    expect(markdown).toContain(
      'An inline link: [example](http://dayoneapp.com/markdown).\n### Headers\n# Header 1',
    );
    expect(markdown).toContain(
      '- [ ] Check\n- [ ] List\n### Blockquotes\n> Angle brackets are used for blockquotes.',
    );

    const [slash] = await entry('bsingr/demo.json', 3);
    expect(slash!.kind === 'thought' && slash!.thought.content).toBe(
      '# Third entry with double escapes\n\ndouble escape a/b dot. single escape slash/',
    );
    const [pdf] = await entry('pkamppur/demo.json', 5);
    expect(pdf!.kind === 'thought' && pdf!.thought.content).toBe(
      'Fourth Test Journal Entry\nThis entry contains a PDF file.\n\nContent continues here after the PDF.',
    );
  });

  it('lists photos and files as attachments not imported, one line per journal', async () => {
    const problems = problemsOf(await run('ergebnis/Journal.json'));
    // 166 photo embeds in 44 entries, counted in the file's JSON by hand.
    expect(problems.map((p) => [p.outcome, p.reason])).toEqual([
      ['skipped', 'Attachments not imported: 166 photos in 44 entries (their text is imported)'],
    ]);
    expect(problemsOf(await run('pkamppur/demo.json')).map((p) => p.reason)).toEqual([
      'Entry 4: empty (photos and other media are not imported)',
      'Attachments not imported: 1 photo, 1 PDF in 2 entries (their text is imported)',
    ]);
    const [photo] = await entry('ergebnis/Journal.json', 2);
    expect(photo).toMatchObject({
      kind: 'thought',
      thought: { content: '# Photo, 1 January 2008, Cannon Beach', localDate: '2008-01-01' },
    });
  });

  it('gets ≥95% of titles and tags right on the tuning half, with no escape or photo left', async () => {
    const tuning = await score(TUNING);
    const left = await leftovers();
    console.log(
      `Day One tuning (${tuning.total} entries): titles ${(tuning.titles * 100).toFixed(1)}%, tags ${(tuning.tags * 100).toFixed(1)}%; ` +
        `escapes left ${left.escapes}, photo lines in titles ${left.photoTitles}, in texts ${left.photoTexts}`,
      tuning.wrong,
    );
    expect(tuning.total).toBeGreaterThanOrEqual(25);
    expect(tuning.titles).toBeGreaterThanOrEqual(0.95);
    expect(tuning.tags).toBeGreaterThanOrEqual(0.95);
    expect(left).toEqual({ escapes: 0, photoTitles: 0, photoTexts: 0 });
  });

  it('gets ≥95% of titles and tags right on the held-out half', async () => {
    const held = await score(HELD_OUT);
    console.log(
      `Day One held out (${held.total} entries): titles ${(held.titles * 100).toFixed(1)}%, tags ${(held.tags * 100).toFixed(1)}%`,
      held.wrong,
    );
    expect(held.total).toBeGreaterThanOrEqual(25);
    expect(held.titles).toBeGreaterThanOrEqual(0.95);
    expect(held.tags).toBeGreaterThanOrEqual(0.95);
  });
});

describe('Day One Markdown', () => {
  it('undoes escapes but keeps the one that stops a line becoming a block it was not', () => {
    expect(unescapeDayOne('a\\.b\\!c\\/d \\(e\\) f\\-\\-g \\\\ h\\\\\\.')).toBe('a.b!c/d (e) f--g \\ h\\.');
    expect(unescapeDayOne('\\# not a heading\n\\#tag\n2019\\. was good\n\\- no item\n\\> no quote')).toBe(
      '\\# not a heading\n#tag\n2019\\. was good\n\\- no item\n\\> no quote',
    );
    expect(unescapeDayOne('\\-\\-\\-\n\\`\\`\\`\n\\-\\-a')).toBe('\\---\n\\```\n--a');
    expect(unescapeDayOne('# Title\\!\n- [ ] task\\.\n> quote\\.')).toBe('# Title!\n- [ ] task.\n> quote.');
    expect(unescapeDayOne('\\a \\é')).toBe('\\a \\é');
  });

  it('drops media lines and the blank lines they leave', () => {
    expect(withoutMedia('A\n\n![](dayone-moment://X1)\n\n![](dayone-moment:/video/X2)\n\nB\n\n\nC')).toEqual({
      text: 'A\n\nB\n\n\nC',
      media: ['photo', 'video'],
    });
  });

  it('titles an entry by its first line, as words', () => {
    expect(entryTitle('\n\n## **Big** day ##\nrest')).toBe('Big day');
    expect(entryTitle('- [ ] _buy_ [milk](http://x)')).toBe('buy milk');
    expect(entryTitle('> snake_case stays')).toBe('snake_case stays');
    expect(entryTitle('\\# literal')).toBe('# literal');
    expect(entryTitle('#'.repeat(5000))!.length).toBe(1000);
  });
});
