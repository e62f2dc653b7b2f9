import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evernoteReader } from './evernote-reader';
import { ENCRYPTED } from './enml-markdown';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

/** The real exports of other apps (../shared/corpora/import-real), read in place, never copied. */
const REAL = path.resolve(import.meta.dirname, '../../../../../../../shared/corpora/import-real');

/** What a note of a real export must become, labelled by hand from the export itself. */
interface NoteLabel {
  title: string;
  tags: string[];
  /** Its checklist items and tasks, in order: their text (its start) and whether done. */
  checks?: Array<[string, boolean]>;
  /** Lines that must be inside a fenced code block. */
  code?: string[];
  /** Table rows, as GFM lines, the header first. */
  rows?: string[];
  /** How many encrypted blocks it has. */
  encrypted?: number;
  /** Texts that must appear in this order (tasks where their placeholder was). */
  order?: string[];
}

/**
 * The tuning half: the files looked at while building the Evernote 10 conversion (their Markdown
 * read and fixed until right).
 */
const TUNING: Record<string, NoteLabel[]> = {
  'enex/joplin/tasks.enex': [
    {
      title: 'Here is a simple test',
      tags: [],
      checks: [
        ['Bob', false],
        ['Clara', true],
        ['Jeff', false],
      ],
      order: ['List 1', 'Bob', 'Clara', 'List 2', 'Jeff'],
    },
  ],
  'enex/notesnook/test-tasks.enex': [
    {
      title: 'Testnote-Title',
      tags: [],
      checks: [
        ['Task 1', false],
        ['Task 2', false],
      ],
      order: ['Some text', 'Task 1'],
    },
  ],
  'enex/yarle/test-things-to-do.enex': [
    {
      title: 'Things to do',
      tags: [],
      checks: [
        ['Simple task', false],
        ['Task with a reminder', false],
        ['Done', true],
        ['Task with due date (due 2022-05-28', false],
        ['Task with a flag', false],
      ],
    },
  ],
  'enex/yarle/test-checklist.enex': [
    {
      title: 'test-checkbox.v10.48',
      tags: [],
      checks: [
        ['Checklist item 1', false],
        ['Nested item 1a', false],
        ['Nested checked item', true],
        ['Checked checklist item 2', true],
        ['Checklist item 3', false],
        ['nested checklist', false],
        ['Checklist **bold** and &', false],
      ],
      code: ['codeblock'],
    },
  ],
  'enex/yarle/test-encryption.enex': [{ title: 'Encryption', tags: [], encrypted: 1 }],
  'enex/yarle/test-table.enex': [
    { title: 'table', tags: [], rows: ['| c1r1 | c2r1 | c3r1 |', '| c1r2 | **c2r2** | C3r2 |'] },
  ],
  'enex/notesnook/codeblock.enex': [
    {
      title: 'test - checklist',
      tags: [],
      code: ['klkmklmk', '#include <Servo.h>', '#include <LiquidCrystal.h>', 'kmkmkl'],
    },
  ],
  'enex/notesnook/ll.enex': [
    {
      title: 'll',
      tags: [],
      checks: [
        ['lkmk;mklml', false],
        ['lk lmk klm', true],
        ['\\\\m', true],
        [';;;;', false],
        ['l;;lllllllllklklkl', true],
        ['jjmkoi', false],
        ['klmklm', false],
      ],
      rows: ['| lll | ll |', '| kllk | ll |'],
      code: ['klkmklmk'],
    },
  ],
  'enex/notallyx/Notebook.enex': [
    { title: 'Audio', tags: [] },
    {
      title: 'Pinned List',
      tags: [],
      checks: [
        ['Parent1 (due 2024-10-24', false],
        ['Child1', false],
        ['Child2', false],
        ['Parent2', false],
        ['Parent4', true],
        ['Parent3', true],
        ['Child4', true],
      ],
    },
    { title: 'Text formatting', tags: ['Label 1', 'Label 2'] },
    { title: 'Normal Note', tags: ['Label 1'] },
    { title: 'File', tags: [] },
    { title: 'Image', tags: [] },
  ],
  'enex/yarle/test-tana-02.enex': [
    { title: 'Nested tasks', tags: [] },
    {
      title: 'Tasks',
      tags: [],
      checks: [
        ['Task1', false],
        ['Task2', false],
        ['Done Task3', true],
        ['Task4', false],
        ['Task5', false],
        ['CheckTheLastInOrderTask6', true],
      ],
    },
    { title: 'Links', tags: [] },
    {
      title: 'TanaNote1',
      tags: ['tanaTag1', 'tanaTag2'],
      code: ['This is a codeblock', 'This is a next line within the codeblock'],
    },
    { title: 'Plain text styles', tags: [] },
    {
      title: 'Tana note2',
      tags: ['tanaTag1', 'tanaTag2'],
      checks: [
        ['checkpoint1', false],
        ['checkpoint2', false],
      ],
    },
    {
      title: 'Table',
      tags: [],
      rows: [
        '| TABLE0.0 | Column1 | Column2 |',
        '| Row1 | Cell1.1 | Cell1.2 |',
        '| Row2 | Cell.2.1 | Cell2.2 |',
      ],
    },
  ],
  'enex/yarle/test-checkboxes.enex': [
    {
      title: 'checkboxes',
      tags: [],
      checks: [
        ['Checkbox not completed', false],
        ['Checkbox done', true],
      ],
    },
  ],
  'enex/notesnook/checklist.enex': [
    {
      title: 'test - checklist',
      tags: [],
      checks: [
        ['Checklist item 1', false],
        ['Nested item 1a', false],
        ['Nested item 1b is checked', true],
        ['Checklist item 2 is checked', true],
        ['Nested unordered 2a', false],
        ['Checklist item 3', false],
        ['Nested ordered 3a', false],
        ['Nested checklist item', false],
        ['Checklist **bold** `inline code`', false],
      ],
    },
  ],
  'enex/joplin/ImportTestCorrupt.enex': [
    { title: 'Note 1', tags: [] },
    // Its first row's markup is broken (`<tr<td`): read as a browser does, its first cell's text
    // goes before the table, and the header row has the two cells left.
    {
      title: 'Note 2',
      tags: [],
      rows: ['| test |  |  |', '| bl | bla | bla |'],
      order: ['test', '| test |'],
    },
    { title: 'plain note 2', tags: [] },
  ],
  'enex/yarle/test-tana-table.enex': [
    {
      title: 'Table',
      tags: [],
      rows: [
        '| TABLE0.0 | Column1 | Column2 |',
        '| Row1 | Cell1.1 | Cell1.2 |',
        '| Row2 | Cell.2.1 | Cell2.2 |',
      ],
    },
  ],
  'enex/yarle/test-noteWithCodeBlock.enex': [
    {
      title: 'Note with code block',
      tags: [],
      code: ['# This program prints *Hello, world* in _Python_', '        if n % 15 == 0 {'],
    },
  ],
  'enex/notesnook/codeblock-with-spaces.enex': [
    {
      title: 'Test of ComponentFixture<ContactFormComponent> with NBSP',
      tags: [],
      code: ['  let fixture: ComponentFixture<ContactFormComponent>;'],
    },
  ],
  'enex/yarle/test-specialItems.enex': [
    {
      title: 'special items',
      tags: [],
      checks: [
        ['Checkbox1', false],
        ['CheckedCheckbox2', true],
      ],
      code: ['Inline Code'],
    },
  ],
};

/** The held-out half: labelled from the exports alone, their Markdown not looked at until the end. */
const HELD_OUT: Record<string, NoteLabel[]> = {
  'enex/yarle/test-empty-en-todo.enex': [
    {
      title: 'test-empty-en-todo',
      tags: ['WorkLog', 'AU_RA'],
      checks: [
        ['Add view\\_post\\_X\\_forum variable', true],
        ['Handle the two non-\\_ttl variables', true],
        ['Begin stepwise regression work', false],
      ],
    },
  ],
  'enex/yarle/test-noteWithTags.enex': [{ title: 'test -note with text only', tags: ['tag1', 'tag2'] }],
  'enex/yarle/test-noteWithNestedTags.enex': [
    { title: 'test -note with text only', tags: ['tag1_nestedTag1', 'tag2_nestedTag2'] },
  ],
  'enex/yarle/test-invalid-tags.enex': [{ title: 'invalid-tags', tags: ['tagPt1@+`"\'\\_tagPt2éáűőőúöüóí'] }],
  'enex/yarle/test-monospace-codeblocks.enex': [{ title: 'test-monospace-codeblocks', tags: [] }],
  'enex/yarle/sanitize_fulltest.enex': [
    { title: 'LinkedNote', tags: [] },
    {
      title: 'title_<>:"/\\|?*_endOfTitle',
      tags: [],
      code: ['    "replacementCharacterMap": {', '        "<": "lessthan",', '        "|": "line",'],
    },
  ],
  'enex/yarle/Colors.enex': [{ title: 'Colors', tags: [] }],
  'enex/notesnook/ignore-black-color.enex': [
    {
      title: 'Instant pot Costa Rican Chicken stew (Pollo en Salsa)',
      tags: ['recipe', 'savory', 'chicken', 'main course', 'instant pot'],
    },
  ],
  'enex/notesnook/Essay Outline.enex': [{ title: 'Essay Outline', tags: ['hello', 'world', 'one', 'go'] }],
  'obsidian-importer/evernote/test-task-lists.enex': [
    {
      title: 'Task lists',
      tags: [],
      checks: [
        ['Open task', false],
        ['Done task', true],
        ['Open task', false],
        ['Done task', true],
        ['Open task', false],
        ['Done task', true],
        ['Open task', false],
        ['Done task', true],
      ],
    },
  ],
  'obsidian-importer/evernote/code-block-language.enex': [
    {
      title: 'Code blocks with a language',
      tags: [],
      code: ['int a = 0x123;  int b = a<<2;', 'just some text', "print('Hello, world!')", 'NSLog(@"hi");'],
    },
  ],
  'obsidian-importer/evernote/code-block-indentation.enex': [
    { title: 'Indented with spaces', tags: [], code: ['def f(x):', '    if x:', '        return 1'] },
    { title: 'Indented with non-breaking spaces', tags: [], code: ['    if x:', '        return 1'] },
    {
      title: 'Backslashes and markdown in code',
      tags: [],
      code: ["grep -o 'a\\\\*b' file \\\\", "  | sed 's/_x_/*y*/'"],
    },
  ],
};

/** What Evernote writes in place of its tasks, in any language (found in no note's own text). */
const PLACEHOLDER = /Content not supported|Inhalt nicht unterstützt|placeholder for Tasks|Platzhalter für/;

interface Tally {
  notes: number;
  lost: number;
  titles: number;
  tags: number;
  checks: number;
  checksKept: number;
  other: number;
  otherKept: number;
  placeholders: number;
  misses: string[];
}

/** The lines of `content` inside fenced code blocks. */
function codeLines(content: string): Set<string> {
  const lines = new Set<string>();
  let fence: string | null = null;
  for (const line of content.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && marker && line.trim() === fence) fence = null;
    else if (fence !== null) lines.add(line.trimEnd());
  }
  return lines;
}

async function tally(labels: Record<string, NoteLabel[]>): Promise<Tally> {
  const t: Tally = {
    ...{ notes: 0, lost: 0, titles: 0, tags: 0, checks: 0, checksKept: 0 },
    ...{ other: 0, otherKept: 0, placeholders: 0, misses: [] },
  };
  for (const [file, notes] of Object.entries(labels)) {
    const items = await readAll(
      evernoteReader,
      memorySource({ 'Notebook.enex': readFileSync(path.join(REAL, file)) }),
    );
    const thoughts = thoughtsOf(items).filter((i) => !i.part || i.part.n === 1);
    t.lost += Math.max(0, notes.length - thoughts.length);
    notes.forEach((label, k) => {
      t.notes++;
      const thought = thoughts[k]?.thought;
      const miss = (what: string) => t.misses.push(`${file} #${k + 1} ${label.title}: ${what}`);
      if (!thought) return miss('no thought');
      const content = thought.content;
      if (thought.title === label.title) t.titles++;
      else miss(`title ${JSON.stringify(thought.title)}`);
      if (JSON.stringify([...thought.tags].sort()) === JSON.stringify([...label.tags].sort())) t.tags++;
      else miss(`tags ${JSON.stringify(thought.tags)}`);
      if (PLACEHOLDER.test(content)) t.placeholders++;
      // Checklist items in order, each on a line of its own with its box.
      const lines = content.split('\n');
      let at = 0;
      for (const [text, done] of label.checks ?? []) {
        t.checks++;
        const box = done ? '[x]' : '[ ]';
        const found = lines.findIndex(
          (line, i) => i >= at && line.replace(/^\s*(?:[-*+]|\d+\.)?\s*/, '').startsWith(`${box} ${text}`),
        );
        if (found >= 0) {
          t.checksKept++;
          at = found + 1;
        } else miss(`check ${box} ${text}`);
      }
      const code = codeLines(content);
      for (const line of label.code ?? []) {
        t.other++;
        if (code.has(line)) t.otherKept++;
        else miss(`code ${JSON.stringify(line)}`);
      }
      for (const [i, row] of (label.rows ?? []).entries()) {
        t.other++;
        const line = lines.indexOf(row);
        // The header row is followed by the delimiter row.
        if (line >= 0 && (i > 0 || /^\|(?: --- \|)+$/.test(lines[line + 1] ?? ''))) t.otherKept++;
        else miss(`row ${row}`);
      }
      if (label.encrypted) {
        t.other++;
        if (content.split(ENCRYPTED).length - 1 === label.encrypted) t.otherKept++;
        else miss('encrypted block');
      }
      if (label.order) {
        t.other++;
        const places = label.order.map((text) => content.indexOf(text));
        if (places.every((p, i) => p >= 0 && (i === 0 || p > places[i - 1]!))) t.otherKept++;
        else miss(`order ${label.order.join(' < ')}`);
      }
    });
  }
  return t;
}

const percent = (n: number, of: number) => (of === 0 ? 100 : (100 * n) / of);

function report(half: string, t: Tally) {
  const figures = {
    notes: t.notes,
    lost: t.lost,
    titles: `${percent(t.titles, t.notes).toFixed(1)}%`,
    tags: `${percent(t.tags, t.notes).toFixed(1)}%`,
    states: `${percent(t.checksKept, t.checks).toFixed(1)}% of ${t.checks}`,
    'code/tables/encrypted/placement': `${percent(t.otherKept, t.other).toFixed(1)}% of ${t.other}`,
    placeholders: t.placeholders,
  };
  console.log(
    `Evernote, ${half}: ${JSON.stringify(figures)}${t.misses.length ? `\n  ${t.misses.join('\n  ')}` : ''}`,
  );
  expect(t.lost, t.misses.join('\n')).toBe(0);
  expect(t.placeholders).toBe(0);
  expect(percent(t.titles, t.notes), t.misses.join('\n')).toBeGreaterThanOrEqual(95);
  expect(percent(t.tags, t.notes), t.misses.join('\n')).toBeGreaterThanOrEqual(95);
  expect(percent(t.checksKept, t.checks), t.misses.join('\n')).toBeGreaterThanOrEqual(95);
  expect(percent(t.otherKept, t.other), t.misses.join('\n')).toBeGreaterThanOrEqual(95);
}

describe('real Evernote exports, labelled by hand', () => {
  it('tuning half: titles, tags, checklist and task states, code, tables, encrypted blocks', async () => {
    report('tuning half', await tally(TUNING));
  });
  it('held-out half: the same figures on files not tuned against', async () => {
    report('held-out half', await tally(HELD_OUT));
  });
});

/** Every `.enex` and `.xml` file under `dir`, relative to REAL. */
function exportsUnder(dir: string): string[] {
  return readdirSync(path.join(REAL, dir))
    .sort()
    .flatMap((name) => {
      const rel = path.join(dir, name);
      if (statSync(path.join(REAL, rel)).isDirectory()) return exportsUnder(rel);
      return /\.(enex|xml)$/i.test(name) && readFileSync(path.join(REAL, rel), 'utf8').includes('<en-export')
        ? [rel]
        : [];
    });
}

describe('every real Evernote export', () => {
  const files = exportsUnder('.');
  it.each(files)('%s: every note a thought or a reported reason, no placeholder', async (file) => {
    const bytes = readFileSync(path.join(REAL, file));
    const notes = bytes.toString('utf8').match(/<note>/g)?.length ?? 0;
    // Read as an `.enex` whatever its name (the reader takes only `.enex` files).
    const items = await readAll(evernoteReader, memorySource({ 'Notebook.enex': bytes }));
    const thoughts = thoughtsOf(items);
    const reasons = problemsOf(items).filter((p) => /^Note \d+: /.test(p.reason));
    const notesRead = thoughts.filter((t) => !t.part || t.part.n === 1).length;
    expect(notesRead + reasons.length, JSON.stringify(problemsOf(items))).toBeGreaterThanOrEqual(notes);
    for (const { thought } of thoughts) expect(thought.content).not.toMatch(PLACEHOLDER);
  });
});
