import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuMs } from '@haven/kit/testing';
import { enexNotes, type EnexNote } from './enex';
import { ENCRYPTED, enmlToMarkdown } from './html-markdown';

/** Longest one note may take to convert in CPU time, whatever its HTML (a few ms when all is well). */
const TIME_LIMIT_MS = 2_000;

/**
 * The Markdown of `enml`, failing the test if it took longer than TIME_LIMIT_MS of CPU: once, or
 * the fastest of three when the first is over (two test files sharing a core slow each other's CPU
 * time too; what is quadratic is slow every time).
 */
function timed(enml: string): string {
  let markdown = '';
  let fastest = Infinity;
  for (let runs = 0; runs < 3 && fastest >= TIME_LIMIT_MS; runs++)
    fastest = Math.min(
      fastest,
      cpuMs(() => (markdown = enmlToMarkdown(enml))),
    );
  expect(fastest).toBeLessThan(TIME_LIMIT_MS);
  return markdown;
}

describe('ENML as Markdown', () => {
  it('writes checklists, headings, lists, code and links; drops attachments, marks encrypted text', () => {
    const enml =
      '<?xml version="1.0" encoding="UTF-8"?>' +
      '<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd">' +
      '<en-note><h1>Weekend</h1><h3>Before leaving</h3>' +
      '<div><en-todo checked="true"/>done</div><div><en-todo checked="false"/>open</div>' +
      '<div><en-todo/>not yet</div>' +
      '<en-media type="image/png" hash="f00d"/><en-crypt cipher="AES" length="128">U2FsdGVk</en-crypt>' +
      '<ul><li>bread</li><li>milk<ul><li>oat</li></ul></li></ul><ol><li>pack</li><li>go</li></ol>' +
      '<div>Run <code>npm&nbsp;test</code> first:</div>' +
      '<pre><code>const a = 1;\nconsole.log(a);</code></pre>' +
      '<div>See <a href="https://example.com/a?b=1&amp;c=2" title="Example">the site</a>, ' +
      '<b>bold</b> and <i>italic</i>.<br/>Next line &amp; more.</div></en-note>';
    expect(enmlToMarkdown(enml)).toBe(
      [
        '# Weekend',
        '### Before leaving',
        '[x] done',
        '[ ] open',
        '[ ] not yet',
        ENCRYPTED,
        '-   bread\n-   milk\n    -   oat',
        '1.  pack\n2.  go',
        'Run `npm\u00a0test` first:',
        '```\nconst a = 1;\nconsole.log(a);\n```',
        'See [the site](https://example.com/a?b=1&c=2 "Example"), **bold** and _italic_.  \nNext line & more.',
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
      `${group('g-2', 'Inhalt nicht unterstützt')}${group('g-3', 'Contenu non pris en charge')}<div>After</div></en-note>`;
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
        'After',
        '- [x] Lost group\n- [ ] No group',
      ].join('\n\n'),
    );
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

  it('writes tables as GFM tables, a line per row, the first row as header; the cells of one holding tables as blocks', () => {
    const enml =
      '<en-note><table><colgroup><col/><col/></colgroup><tbody>' +
      '<tr><td><div>a|b</div></td><td><div>line 1</div><div>line 2</div></td></tr>' +
      '<tr><td><b>bold</b></td><td></td><td>extra</td></tr></tbody></table>' +
      '<table><tr><td>outer<table><tr><td>inner</td></tr></table></td></tr></table></en-note>';
    expect(enmlToMarkdown(enml)).toBe(
      [
        '| a\\|b | line 1<br>line 2 |  |\n| --- | --- | --- |\n| **bold** |  | extra |',
        'outer',
        '| inner |\n| --- |',
      ].join('\n\n'),
    );
  });

  it('keeps a checkbox in formatting that holds nothing else', () => {
    expect(
      enmlToMarkdown('<en-note><ul><li><i><b><en-todo checked="true"/></b></i>Done</li></ul></en-note>'),
    ).toBe('-   [x] Done');
  });

  it('reads a self-closed element as XML does, empty, instead of wrapping all that follows', () => {
    // An HTML parser gives `## plain, **not bold**`.
    expect(enmlToMarkdown('<en-note><h2/>plain, <b/>not bold<a name="end"/></en-note>')).toBe(
      'plain, not bold',
    );
  });
});

/** `open` nested until 100,000 elements deep, the innermost text inside, then closed (or not). */
const nest = (open: string, close: string, closed = true) => {
  const times = Math.ceil(100_000 / (open.match(/</g) ?? []).length);
  return `<en-note>${open.repeat(times)}innermost${closed ? close.repeat(times) : ''}</en-note>`;
};

describe('ENML nested 100,000 deep converts in under 2 s, keeping the innermost text', () => {
  it.each([
    ['<div>', nest('<div>', '</div>')],
    ['<b><i> alternating', nest('<b><i>', '</i></b>')],
    ['<ul><li>', nest('<ul><li>', '</li></ul>')],
    ['<table><tr><td>', nest('<table><tr><td>', '</td></tr></table>')],
    ['<ul> right in <ul> (as Evernote nests)', nest('<ul><li>x</li><ul>', '</ul></ul>')],
    ['code blocks', nest('<div style="--en-codeblock:true">a<div>b</div>', '</div>')],

    ['checkboxes in formatting', nest('<b><en-todo/>', '</b>')],
    ['<div> never closed', nest('<div>', '', false)],
    ['<ul><li> never closed', nest('<ul><li>', '', false)],
    // What overflowed on a real clip: to an HTML parser an XML `<div/>` opens a div.
    ['<div/> (XML, which HTML parsers nest)', nest('<div/><span>', '</span>')],
  ])('%s', (_, enml) => {
    const markdown = timed(enml);
    expect(markdown).toContain('innermost');
  });

  it('task groups (their placeholder dropped, with all in it)', () => {
    const enml = nest('<div style="--en-task-group:true;--en-id:g"><b>', '</b></div>');
    expect(timed(enml.replace('</en-note>', 'after</en-note>'))).toBe('after');
  });
});

describe('a megabyte of pathological ENML converts in under 2 s, into at most a few megabytes', () => {
  const MB = 1024 * 1024;
  const fill = (unit: string) => unit.repeat(Math.floor(MB / unit.length));
  it.each([
    // turndown spends ~20 µs on an element, and searches each blank one for 27 tag names.
    ['333,000 <p>', fill('<p>')],
    // turndown trims its output with a regex quadratic in the longest run of whitespace.
    ['a run of &nbsp;', fill('&nbsp;')],
    ['a run of <br>', fill('<br>')],
    ['a run of spaces in <pre>', `<pre>${fill(' ')}x</pre>`],
    ['a run of &nbsp; split over elements', fill('<span>&nbsp;</span>')],
    // Each line of a list item is indented once per level it is nested in.
    ['lines 32 lists deep', '<ul><li>'.repeat(32) + fill('line<br/>')],
    // The ENML fix-up regexes read to the next `>` from every `<en-todo`.
    ['<en-todo without an end', fill('<en-todo ')],
  ])('%s', (_, html) => {
    const markdown = timed(`<en-note>${html}<div>the end</div></en-note>`);
    expect(markdown).toContain('the end');
    expect(markdown.length).toBeLessThan(4 * MB);
  });
});

/** This file is in services/portability/src/domain/import/formats/ of the repository. */
const REPO = path.resolve(import.meta.dirname, '../../../../../..');
/** The public corpora (CI has `shared/` beside the checkout); read in place, never copied. */
const CORPORA = path.resolve(REPO, '..', 'shared', 'corpora');
const CLIP = path.join(CORPORA, 'import-real', 'enex', 'yarle', 'huge-html.enex');
const corpusMissing = !existsSync(CORPORA);

describe.skipIf(corpusMissing && !process.env.CI)(
  corpusMissing
    ? `a real 827 KB web clip (${process.env.CI ? '' : 'skipped: '}the corpus is missing at ${CORPORA})`
    : 'a real 827 KB web clip',
  () => {
    it('converts whole: its article, its comments, its footer', async () => {
      expect(existsSync(CLIP), `${CLIP} is missing: CI must have shared/corpora beside the checkout`).toBe(
        true,
      );
      const notes: EnexNote[] = [];
      for await (const note of enexNotes(createReadStream(CLIP))) {
        if (typeof note.error === 'string') throw new Error(note.error);
        notes.push(note as EnexNote);
      }
      expect(notes).toHaveLength(1);
      expect(notes[0]!.error).toBeUndefined();
      expect(notes[0]!.content.length).toBeGreaterThan(800_000);
      const markdown = timed(notes[0]!.content);
      const page =
        'http://www.theguardian.com/world/2015/jul/27/dying-for-christianity-millions-at-risk-amid-rise-in-persecution-across-the-globe';
      expect(markdown).toContain(`[Skip to main content](${page}#maincontent)`);
      expect(markdown).toContain(
        '# Dying for Christianity: millions at risk amid rise in persecution across the globe',
      );
      expect(markdown).toContain(
        'Lee Marsden, professor of international relations, specialising in religion and security',
      );
      expect(markdown).toContain('## comments (741)');
      // Its last lines are still a list: the structure holds to the end.
      expect(markdown.endsWith(`-   [Share via Email](${page}#)`)).toBe(true);
    });
  },
);
