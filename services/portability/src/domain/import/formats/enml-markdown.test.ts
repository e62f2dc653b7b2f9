import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { timedConversion } from './conversion-time.test-support';
import { enexNotes, type EnexNote } from './enex';
import { ENCRYPTED, enmlToMarkdown, TASKS_MISSING } from './enml-markdown';

/** The Markdown of `enml`, failing the test past the conversion time limit. */
const timed = (enml: string) => timedConversion(enmlToMarkdown, enml);

describe('ENML as Markdown', () => {
  it('writes checkboxes as task-list lines; drops attachments, marks encrypted text', () => {
    const enml =
      '<?xml version="1.0" encoding="UTF-8"?>' +
      '<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">' +
      '<en-note><h3>Before leaving</h3>' +
      '<div><en-todo checked="true"/>done</div><div><en-todo checked="false"/>open</div>' +
      '<div><en-todo/>not yet</div>' +
      '<en-media type="image/png" hash="f00d"/><en-crypt cipher="AES" length="128">U2FsdGVk</en-crypt>' +
      '<en-crypt/><div>See <b>this</b>.</div></en-note>';
    expect(enmlToMarkdown(enml)).toBe(
      [
        '### Before leaving',
        '- [x] done\n- [ ] open\n- [ ] not yet',
        ENCRYPTED,
        ENCRYPTED,
        'See **this**.',
      ].join('\n\n'),
    );
  });

  it('writes old-style checkboxes in list items as task-list items, one a line, nested as they are', () => {
    const enml =
      '<en-note><ul><li><div><en-todo checked="false"/>one</div></li>' +
      '<ul><li><div><en-todo checked="true"/>one a</div></li></ul>' +
      '<li><i><b><en-todo checked="true"/></b></i>two</li><li>three</li></ul>' +
      '<ol><li><en-todo/>first</li><li><en-todo checked="true"/>second</li></ol></en-note>';
    expect(enmlToMarkdown(enml)).toBe(
      '- [ ] one\n    - [x] one a\n- [x] two\n-   three\n\n- [ ] first\n- [x] second',
    );
  });

  it('starts a task-list line with a checkbox only where it starts a line', () => {
    const enml =
      '<en-note><en-todo/>loose<br/><en-todo checked="true"/>lines<br/>' +
      '<div>Text then <en-todo/>a box</div>' +
      '<div>a<br/><b><en-todo checked="true"/>after a break</b></div>' +
      '<blockquote><en-todo/>quoted</blockquote>' +
      '<table><tr><td><en-todo/>cell</td></tr></table>' +
      '<h2><en-todo/>heading</h2></en-note>';
    expect(enmlToMarkdown(enml)).toBe(
      [
        '- [ ] loose  \n- [x] lines  ',
        'Text then [ ] a box',
        'a  \n- [x] **after a break**',
        '> - [ ] quoted',
        '| [ ] cell |\n| --- |',
        '## [ ] heading',
      ].join('\n\n'),
    );
  });

  it('writes Evernote 10 checklists as task lists, nested as Evernote nests them', () => {
    const enml =
      '<en-note><ul style="--en-todo:true;"><li style="--en-checked:false;"><div>one</div></li>' +
      '<ul style="--en-todo:true;"><li style="--en-checked:true;"><div>one a</div></li></ul>' +
      '<li style="--en-checked:true;"><div>two <b>bold</b></div></li><li>three</li></ul>' +
      '<ul><li>plain</li></ul></en-note>';
    expect(enmlToMarkdown(enml)).toBe(
      '- [ ] one\n    - [x] one a\n- [x] two **bold**\n- [ ] three\n\n-   plain',
    );
  });

  it('puts tasks where their group was, drops its placeholder in any language, the rest at the end', () => {
    const group = (id: string, words: string) =>
      `<div style="--en-task-group:true; --en-id:${id};color:#868686"><div style="font-weight:600">${words}</div>` +
      `<div>This block is a placeholder for Tasks…</div></div>`;
    const enml =
      `<en-note><div>Before</div>${group('g-1', 'Content not supported')}<div>Between</div>` +
      `${group('g-2', 'Inhalt nicht unterstützt')}${group('g-3', 'Contenu non pris en charge')}` +
      `${group('g-1', 'Content not supported')}<div>After</div></en-note>`;
    const markdown = enmlToMarkdown(enml, [
      { title: 'Call *Bob*', done: false, group: 'g-1' },
      { title: 'Pay rent', done: true, due: '2022-05-28 21:59 UTC', group: 'g-1' },
      { title: 'Water plants', done: false, group: 'g-2' },
      { title: 'Lost group', done: true, group: 'g-9' },
      { title: 'No group', done: false },
    ]);
    expect(markdown).toBe(
      [
        'Before',
        '- [ ] Call \\*Bob\\*\n- [x] Pay rent (due 2022-05-28 21:59 UTC)',
        'Between',
        '- [ ] Water plants',
        // g-3's tasks are not in the export; g-1's second placeholder is dropped.
        TASKS_MISSING,
        'After',
        '- [x] Lost group\n- [ ] No group',
      ].join('\n\n'),
    );
  });

  it('says where tasks were when the export has none of them', () => {
    const enml =
      '<en-note><div>Todo:</div><div style="--en-task-group:true;--en-id:abc">' +
      '<div>Content not supported</div></div></en-note>';
    expect(enmlToMarkdown(enml)).toBe(`Todo:\n\n${TASKS_MISSING}`);
  });

  it('writes code blocks as fenced code, line by line, and monospace text as inline code', () => {
    const enml =
      '<en-note><div style="--en-codeblock:true;font-family:Monaco"><div>#include &lt;Servo.h></div>' +
      '<div>&nbsp;&nbsp;x = 1;<br/>```</div><div><br/></div><div>end</div></div>' +
      '<div>Old: </div><div style="-en-codeblock:true;"><div>#old</div></div>' +
      '<div style="--en-codeblock:true;--en-codeblockLanguage:clike;">int a;</div>' +
      '<div style="--en-codeblock:true;--en-codeblockLanguage:objective c;">x</div>' +
      '<div>Run <span style="--en-fontfamily: monospace;">#make `all`</span> now</div></en-note>';
    expect(enmlToMarkdown(enml)).toBe(
      [
        '````\n#include <Servo.h>\n  x = 1;\n```\n\nend\n````',
        'Old:',
        '```\n#old\n```',
        '```clike\nint a;\n```',
        '```\nx\n```',
        'Run `` #make `all` `` now',
      ].join('\n\n'),
    );
  });

  it('strikes through what Evernote strikes through', () => {
    const enml =
      '<en-note><div><s>gone</s> and <span style="--en-highlight:red;text-decoration: line-through;">old</span>' +
      '</div></en-note>';
    expect(enmlToMarkdown(enml)).toBe('~~gone~~ and ~~old~~');
  });
});

/** `open` nested until 100,000 elements deep, the innermost text inside, then closed (or not). */
const nest = (open: string, close: string, closed = true) => {
  const times = Math.ceil(100_000 / (open.match(/</g) ?? []).length);
  return `<en-note>${open.repeat(times)}innermost${closed ? close.repeat(times) : ''}</en-note>`;
};

describe('ENML nested 100,000 deep converts in under 3 s of CPU, keeping the innermost text', () => {
  it.each([
    ['code blocks', nest('<div style="--en-codeblock:true">a<div>b</div>', '</div>')],
    ['checkboxes in formatting', nest('<b><en-todo/>', '</b>')],
    ['checkboxes in list items', nest('<ul><li><div><en-todo/>', '</div></li></ul>')],
    ['checkboxes in blocks', nest('<div><en-todo checked="true"/>', '</div>')],
  ])('%s', (_, enml) => {
    const markdown = timed(enml);
    expect(markdown).toContain('innermost');
  });

  it('task groups (their placeholder replaced, with all in it)', () => {
    const enml = nest('<div style="--en-task-group:true;--en-id:g"><b>', '</b></div>');
    expect(timed(enml.replace('</en-note>', 'after</en-note>'))).toBe(`${TASKS_MISSING}\n\nafter`);
  });
});

describe('a megabyte of pathological ENML converts in under 3 s of CPU, into at most a few megabytes', () => {
  const MB = 1024 * 1024;
  const fill = (unit: string) => unit.repeat(Math.floor(MB / unit.length));
  it.each([
    // The ENML fix-up regexes read to the next `>` from every `<en-todo`.
    ['<en-todo without an end', fill('<en-todo ')],
    // Each checkbox looks back for what is before it on its line.
    ['checkboxes', fill('<en-todo/>')],
    ['checkboxes between spaces', fill('<en-todo/>      ')],
    ['checkbox lines', fill('<div><en-todo/>x</div>')],
    ['task groups', fill('<div style="--en-task-group:true;--en-id:g"></div>')],
  ])('%s', (_, enml) => {
    const markdown = timed(`<en-note>${enml}<div>the end</div></en-note>`);
    expect(markdown).toContain('the end');
    expect(markdown.length).toBeLessThan(4 * MB);
  });
});

/** This file is in services/portability/src/domain/import/formats/ of the repository. */
const REPO = path.resolve(import.meta.dirname, '../../../../../..');
/** The public corpora (CI has `shared/` beside the checkout); read in place, never copied. */
const ENEX = path.resolve(REPO, '..', 'shared', 'corpora', 'import-real', 'enex', 'yarle');
const corpusMissing = !existsSync(ENEX);

/** The Markdown of each note of a real export. */
async function notesOf(file: string): Promise<string[]> {
  const markdown: string[] = [];
  for await (const note of enexNotes(createReadStream(path.join(ENEX, file)))) {
    if (typeof note.error === 'string') throw new Error(note.error);
    markdown.push(enmlToMarkdown((note as EnexNote).content));
  }
  return markdown;
}

describe.skipIf(corpusMissing && !process.env.CI)('real Evernote notes', () => {
  it('strikes through, and old-style checkboxes are task-list lines', async () => {
    // <div>Normal <s>strikethrough</s> normal</div>
    expect(await notesOf('test-strikethrough.enex')).toEqual(['Normal ~~strikethrough~~ normal']);
    // <div><en-todo checked="false" />Checkbox1</div><div><en-todo checked="true" />CheckedCheckbox2</div>
    const [special] = await notesOf('test-specialItems.enex');
    expect(special).toContain('\n- [ ] Checkbox1\n- [x] CheckedCheckbox2\n');
  });
});
