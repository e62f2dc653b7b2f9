import { describe, expect, it } from 'vitest';
import { keyLine, splitFrontMatter } from './front-matter';
import { memorySource, readAll, thoughtsOf } from './memory-source.test-support';
import { notesReader } from './notes-reader';

const note = (yaml: string, body = 'Body') => `---\n${yaml}\n---\n${body}`;

describe('splitFrontMatter', () => {
  it('keeps scalars as written: a title 001 is 001, tags 2021 and true are text', () => {
    expect(splitFrontMatter(note('title: 001\ntags: [2021, true, x]\nsize: 1.50'))).toEqual({
      meta: { title: '001', tags: ['2021', 'true', 'x'], size: '1.50' },
      body: 'Body',
    });
    expect(splitFrontMatter(note('title: ~\ndate: 2021-02-26'))).toEqual({
      meta: { title: null, date: '2021-02-26' },
      body: 'Body',
    });
  });

  it('reads front matter YAML refuses line by line, tabs and all, and says so', () => {
    const split = splitFrontMatter(note('title: norm\ntags:\n\t\t- tag1\n- tag2\n - "tag3"'));
    expect(split).toEqual({
      meta: { title: 'norm', tags: ['tag1', 'tag2', 'tag3'] },
      body: 'Body',
      problem: {
        reason: expect.stringMatching(/^The front matter is not valid YAML \(Tabs .*\): read line by line$/),
        line: 4,
      },
    });
  });

  it('reads `key: value` lines, quoted values, [lists] and | blocks when YAML fails', () => {
    const yaml =
      'title: ok\nkey: value: other\nquoted: "a: b"\nlist: [a, \'b\']\nbody: |\n  one\n  two\nafter: x';
    expect(splitFrontMatter(note(yaml))).toMatchObject({
      meta: {
        title: 'ok',
        key: 'value: other',
        quoted: 'a: b',
        list: ['a', 'b'],
        body: 'one\ntwo',
        after: 'x',
      },
      body: 'Body',
      problem: { line: 3 },
    });
    expect(splitFrontMatter(note(yaml))).not.toHaveProperty('kept');
  });

  it('keeps what it cannot read (template placeholders, code) for the note to show', () => {
    const yaml = 'title: {{title}} notes\ntype: weekly\n<%* const start = moment() %>';
    const split = splitFrontMatter(note(yaml));
    expect(split).toMatchObject({
      meta: { type: 'weekly' },
      body: 'Body',
      kept: `${yaml}\n`,
      problem: {
        reason: expect.stringMatching(
          /; 2 lines not understood \(from line 2\), so it is kept in the note as text$/,
        ),
      },
    });
    expect(split).not.toHaveProperty('meta.title');
  });

  it('takes a `---` never closed, or followed by prose, as a horizontal rule', () => {
    for (const text of [
      '---\ntitle: no end\n\nBody',
      '---\n__Advertisement :)__\n\n- [pica](https://x.y) - fast\n---\n\n# h1 Heading',
      '---\n# A heading, not a comment\ntitle: x\n---\nBody',
      '---\n- a list\n---\nBody',
      '---\nhttps://example.com\n---\nBody',
    ])
      expect(splitFrontMatter(text)).toEqual({ meta: {}, body: text });
  });

  it('reads front matter over 64 KB line by line', () => {
    const split = splitFrontMatter(note(`title: Big\nnotes: ${'x'.repeat(70_000)}`));
    expect(split).toMatchObject({
      meta: { title: 'Big' },
      problem: { reason: 'The front matter is larger than 64 KB: read line by line', line: 2 },
    });
  });

  it('reads front matter nested past the limit line by line, keeping it as text, never parsing it', () => {
    const deep = `title: Deep\ntags: ${'['.repeat(50_000)}`;
    const split = splitFrontMatter(note(deep));
    expect(split).toMatchObject({
      meta: { title: 'Deep' },
      kept: `${deep}\n`,
      problem: {
        reason:
          'The front matter is nested more than 64 levels deep: read line by line; 1 line not understood (from line 3), so it is kept in the note as text',
        line: 2,
      },
    });
    // A first line of brackets is no key: the note is all text, as a --- rule would be.
    const text = note('['.repeat(50_000));
    expect(splitFrontMatter(text)).toEqual({ meta: {}, body: text });
  });

  it('gives keys such as __proto__ as own fields, never a prototype', () => {
    const split = splitFrontMatter(note('__proto__: x\ntags:\n\t- a'));
    expect('meta' in split && Object.getPrototypeOf(split.meta)).toBe(Object.prototype);
    expect('meta' in split && Object.keys(split.meta)).toEqual(['__proto__', 'tags']);
  });

  it('reads hostile lines in linear time', () => {
    // 1,000 then 16,000 lines of what makes a careless scan quadratic: the time grows with the size.
    const time = (n: number) => {
      const yaml = `title: x\n${`k${' :a'.repeat(200)}\n\t- ${'"'.repeat(50)}\n  ${'a: '.repeat(50)}\n`.repeat(n)}`;
      const start = performance.now();
      splitFrontMatter(note(yaml));
      return performance.now() - start;
    };
    time(200);
    const small = Math.max(time(1_000), 1);
    expect(time(16_000) / small).toBeLessThan(16 * 8);
  });
});

describe('keyLine', () => {
  it.each([
    ['title: x', 'title', 'x'],
    ['Created At: 2021-02-26 10:00', 'Created At', '2021-02-26 10:00'],
    ['"quoted key": v', 'quoted key', 'v'],
    ['\ttitle:', 'title', ''],
    ['url: https://a.b/c', 'url', 'https://a.b/c'],
  ])('reads %j', (line, key, value) => expect(keyLine(line)).toMatchObject({ key, value }));

  it.each(['- item', '# heading: x', 'https://a.b', '__Advertisement :)__', 'a #b: c', '[x]: y', ''])(
    'finds no key in %j',
    (line) => expect(keyLine(line)).toBeNull(),
  );
});

describe('a note whose front matter is read in part', () => {
  it('is imported, its front matter kept visible after its heading, the report told', async () => {
    const text = note('title: {{title}} notes\ntags: [a, b]', '# Weekly\n\nThe week.');
    const [item, ...rest] = await readAll(notesReader('notes'), memorySource({ 'Weekly.md': text }));
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      kind: 'thought',
      thought: {
        title: 'Weekly',
        tags: ['a', 'b'],
        content: '# Weekly\n\n```yaml\ntitle: {{title}} notes\ntags: [a, b]\n```\n\nThe week.',
      },
      note: expect.stringMatching(/^Line 2: The front matter is not valid YAML/),
    });
  });

  it('imports a note opening with a `---` rule with all its text', async () => {
    const text = '---\nJust a rule above.\n---\n\nMore.';
    const items = thoughtsOf(await readAll(notesReader('notes'), memorySource({ 'Rule.md': text })));
    expect(items).toMatchObject([{ thought: { title: 'Rule', content: `# Rule\n\n${text}` } }]);
    expect(items[0]).not.toHaveProperty('note');
  });
});
