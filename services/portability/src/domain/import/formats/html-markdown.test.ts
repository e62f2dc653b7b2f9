import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { timedConversion } from './conversion-time.test-support';
import { enexNotes, type EnexNote } from './enex';
import { htmlToMarkdown } from './html-markdown';

/** The Markdown of `html`, failing the test past the conversion time limit. */
const timed = (html: string) => timedConversion(htmlToMarkdown, html);

describe('HTML as Markdown', () => {
  it('writes headings, lists, code, links and formatting; drops scripts and styles', () => {
    const html =
      '<h1>Weekend</h1><h3>Before leaving</h3><script>alert(1)</script><style>p{}</style>' +
      '<ul><li>bread</li><li>milk<ul><li>oat</li></ul></li></ul><ol><li>pack</li><li>go</li></ol>' +
      '<div>Run <code>npm&nbsp;test</code> first:</div>' +
      '<pre><code>const a = 1;\nconsole.log(a);</code></pre>' +
      '<div>See <a href="https://example.com/a?b=1&amp;c=2" title="Example">the site</a>, ' +
      '<b>bold</b> and <i>italic</i>.<br/>Next line &amp; more.</div>';
    expect(htmlToMarkdown(html)).toBe(
      [
        '# Weekend',
        '### Before leaving',
        '-   bread\n-   milk\n    -   oat',
        '1.  pack\n2.  go',
        'Run `npm\u00a0test` first:',
        '```\nconst a = 1;\nconsole.log(a);\n```',
        'See [the site](https://example.com/a?b=1&c=2 "Example"), **bold** and _italic_.  \nNext line & more.',
      ].join('\n\n'),
    );
  });

  it('writes struck text (<s>, <strike>, <del>, a line-through style) as GFM strikethrough', () => {
    const html =
      '<div><s>one</s> <strike>two</strike> <del>three</del> ' +
      '<span style="color:red; text-decoration: line-through;">four</span> <s> five </s>!<s> </s></div>' +
      '<div style="text-decoration: line-through">a block is not struck</div>';
    expect(htmlToMarkdown(html)).toBe(
      '~~one~~ ~~two~~ ~~three~~ ~~four~~ ~~five~~ !\n\na block is not struck',
    );
  });

  it('writes tables as GFM tables, a line per row, the first row as header; the cells of one holding tables as blocks', () => {
    const html =
      '<table><colgroup><col/><col/></colgroup><tbody>' +
      '<tr><td><div>a|b</div></td><td><div>line 1</div><div>line 2</div></td></tr>' +
      '<tr><td><b>bold</b></td><td></td><td>extra</td></tr></tbody></table>' +
      '<table><tr><td>outer<table><tr><td>inner</td></tr></table></td></tr></table>';
    expect(htmlToMarkdown(html)).toBe(
      [
        '| a\\|b | line 1<br>line 2 |  |\n| --- | --- | --- |\n| **bold** |  | extra |',
        'outer',
        '| inner |\n| --- |',
      ].join('\n\n'),
    );
  });

  it('nests a list written right inside a list into the item before it', () => {
    expect(htmlToMarkdown('<ul><li>one</li><ul><li>one a</li></ul><li>two</li></ul>')).toBe(
      '-   one\n    -   one a\n-   two',
    );
  });

  it('reads a self-closed element as XML does, empty, instead of wrapping all that follows', () => {
    // An HTML parser gives `## plain, **not bold**`.
    expect(htmlToMarkdown('<h2/>plain, <b/>not bold<a name="end"/>')).toBe('plain, not bold');
  });
});

/** `open` nested until 100,000 elements deep, the innermost text inside, then closed (or not). */
const nest = (open: string, close: string, closed = true) => {
  const times = Math.ceil(100_000 / (open.match(/</g) ?? []).length);
  return `${open.repeat(times)}innermost${closed ? close.repeat(times) : ''}`;
};

describe('HTML nested 100,000 deep converts in under 3 s of CPU, keeping the innermost text', () => {
  it.each([
    ['<div>', nest('<div>', '</div>')],
    ['<b><i> alternating', nest('<b><i>', '</i></b>')],
    ['<ul><li>', nest('<ul><li>', '</li></ul>')],
    ['<table><tr><td>', nest('<table><tr><td>', '</td></tr></table>')],
    ['<ul> right in <ul> (as Evernote nests)', nest('<ul><li>x</li><ul>', '</ul></ul>')],
    ['<div> never closed', nest('<div>', '', false)],
    ['<ul><li> never closed', nest('<ul><li>', '', false)],
    ['struck text', nest('<s><del>', '</del></s>')],
    // What overflowed on a real clip: to an HTML parser an XML `<div/>` opens a div.
    ['<div/> (XML, which HTML parsers nest)', nest('<div/><span>', '</span>')],
  ])('%s', (_, html) => {
    const markdown = timed(html);
    expect(markdown).toContain('innermost');
  });
});

describe('a megabyte of pathological HTML converts in under 3 s of CPU, into at most a few megabytes', () => {
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
    // Every style is searched for `line-through`.
    ['styles', fill('<span style="text-decoration:">x</span>')],
  ])('%s', (_, html) => {
    const markdown = timed(`${html}<div>the end</div>`);
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
      // An Evernote note, but a web page: what any HTML converter reads.
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
