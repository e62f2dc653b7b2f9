import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpuMs } from '@haven/kit/testing';
import { maskInline, proseLines } from '@haven/kit/prose';
import { textTags } from '@haven/kit/hashtags';

const blank = (s: string) => ' '.repeat(s.length);

/**
 * maskInline as it was, a chain of regexes: the reference the scan must agree with. Quadratic or
 * worse on a long hostile line, so only ever given short ones.
 */
function oldMaskInline(line: string): string {
  return line
    .replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, blank)
    .replace(/<(code|style|script)\b[^>]*>.*?<\/\1>/gi, blank)
    .replace(/%%.*?%%/g, blank)
    .replace(/<!--.*?-->/g, blank)
    .replace(/<\/?[A-Za-z][^<>]*>/g, blank)
    .replace(/\]\([^)]*\)/g, blank)
    .replace(/(?<!#)\[\[[^\]]*\]\]/g, blank)
    .replace(/^\s*\[[^\]]+\]:\s*\S+/, blank)
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()]*/gi, blank)
    .replace(/\bwww\.[^\s<>()]+/gi, blank)
    .replace(/\\#/g, '  ');
}

/** textTags as it was, its regexes whole, over the same proseLines: the reference for tags.ts. */
function oldTextTags(body: string): string[] {
  const HASHTAG = /(?<=^|\s)#([\p{L}\p{M}\p{N}_\-/]+)/gu;
  const BRACKETED = /(?<=^|\s)#\[\[([^\]\n]{1,200})\]\]/gu;
  const HEX = /^(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
  const isColour = (tag: string, before: string) =>
    HEX.test(tag) && (/\d/.test(tag) || /^(.)\1*$/.test(tag) || /[:=]\s*$/.test(before));
  const validTag = (tag: string) => /\p{L}/u.test(tag) && !/[{}<>[\]%\n]/.test(tag) && !/^\p{N}+$/u.test(tag);
  const tags: string[] = [];
  for (const line of proseLines(body, { indentedCode: true })) {
    for (const m of line.matchAll(BRACKETED)) tags.push(m[1]!.trim());
    const bare = line.replace(BRACKETED, blank);
    for (const m of bare.matchAll(HASHTAG)) {
      const tag = m[1]!.replace(/\/+$/, '');
      if (tag && !isColour(tag, bare.slice(0, m.index)) && validTag(tag)) tags.push(tag);
    }
  }
  return tags;
}

/** The characters that open, close or end something in maskInline, and some that do not. */
const CHARS = [
  ...'`[]()<>/!-%#:\\ ',
  ...'\t\r\u2028\u00a0',
  ...'aAbwWx_.+=19',
  'é',
  '😀',
  '\uD800',
  '\uDC00',
];
/** Whole pieces, so that the rare openers and closers meet often. */
const TOKENS = [
  ...CHARS,
  '``',
  '```',
  'http://',
  'HTTP://',
  'a+b.c-d://',
  'www.',
  'WWW.',
  'code',
  'CODE',
  'script',
  'style',
  '<code>',
  '</code>',
  '</CODE>',
  '<script a>',
  '</script>',
  '<!--',
  '-->',
  '%%',
  '](',
  '[[',
  ']]',
  '#[[',
  '[id]: ',
  '<a ',
  '</a>',
  '\\#',
  ' #tag',
  ' #fff',
  ' #cafe',
  ': #abc',
  '=#bad',
  ' #x/',
  '#a1',
];

const lineOf = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((a) => a.join('').slice(0, 40));

describe('maskInline', () => {
  it('blanks what the regex chain blanked, character by character', () => {
    fc.assert(
      fc.property(lineOf(CHARS), (line) => {
        expect(maskInline(line)).toBe(oldMaskInline(line));
      }),
      { numRuns: 5000 },
    );
  });

  it('blanks what the regex chain blanked, from whole openers and closers', () => {
    fc.assert(
      fc.property(lineOf(TOKENS), (line) => {
        const masked = maskInline(line);
        expect(masked).toBe(oldMaskInline(line));
        expect(masked).toHaveLength(line.length);
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with the regex chain on some lines it would rarely draw', () => {
    const lines = [
      'Some `#inline` code and ``#double `ticks` #code``, ````` a ``` b ` c',
      '<code class="x">#a</CODE> <Script>#b</script> <style>#c\r</style> <codex>#d</codex>',
      '%% #c %% <!-- #d --> <!-- a\r --> %%a\u2028%% [x](y #z) [[a#b]] #[[c]] [[d]',
      '   [ref]:  https://x.y/#a #b',
      '[]: https://x.y/#a',
      '\u00a0[a]:b #c',
      '[a]:   ',
      '[a] : b',
      '[[a]]: b',
      'AB+c.d-e://x/#y <www.a/#b> _www.c/#d x.www.e/#f 1http://g/#h',
    ];
    for (const line of lines) expect(maskInline(line)).toBe(oldMaskInline(line));
  });

  /** `line` with each of `parts` (the first time it occurs) blanked. */
  const blanked = (line: string, ...parts: string[]) =>
    parts.reduce((out, part) => {
      const at = line.indexOf(part);
      expect(at).toBeGreaterThanOrEqual(0);
      return out.slice(0, at) + blank(part) + out.slice(at + part.length);
    }, line);

  it.each([
    ['a link target', 'See [the page](https://x.y/#frag) #after', '](https://x.y/#frag)'],
    ['a wikilink to a heading', 'a [[Page#Heading]] #b', '[[Page#Heading]]'],
    ['inline code', 'inline `#x` code', '`#x`'],
    ['HTML tags', '<span style="color:#fff">#in</span>', '<span style="color:#fff">', '</span>'],
    ['a URL', 'at https://x.y/#frag, #b', 'https://x.y/#frag,'],
    ['a URL without a scheme', 'at www.x.y/#frag #b', 'www.x.y/#frag'],
    ['comments', '%% #a %% <!-- #b --> #c', '%% #a %%', '<!-- #b -->'],
    ['a code element', '<code>#a</code> #b', '<code>#a</code>'],
    ['a reference definition', '[id]: https://x.y/#a', '[id]: https://x.y/#a'],
    ['an escaped #', 'not \\#a tag', '\\#'],
  ])('blanks %s', (_, line, ...parts) => {
    expect(maskInline(line)).toBe(blanked(line, ...parts));
  });

  it.each([
    ['a tag after a link', '[a](b) #tag', '#tag'],
    ["Logseq's #[[tag]]", 'a #[[multi word]] b', '#[[multi word]]'],
    ['a code span never closed', 'a `#b c', '`#b c'],
    ['a comment closed on another line', 'a <!-- #b', '<!-- #b'],
    ['an element closed past a line break', '<code>#a\r</code>', '#a'],
    ['a tag beside a colon', 'a: #b', 'a: #b'],
  ])('keeps %s', (_, line, kept) => {
    const masked = maskInline(line);
    expect(masked).toHaveLength(line.length);
    expect(masked.slice(line.indexOf(kept), line.indexOf(kept) + kept.length)).toBe(kept);
  });
});

describe('proseLines', () => {
  const tagsOf = (body: string) => textTags(body, { indentedCode: true });

  it('finds a code span over the lines of its paragraph, as Markdown does', () => {
    expect(
      tagsOf('A code span can cross a line ending: `inside\n#multiline-code\nstill inside`. #after'),
    ).toEqual(['after']);
    // Each line keeps its length, and what is outside the span stays as it was.
    const lines = proseLines('one `two\nthree` #four', { indentedCode: true });
    expect(lines).toEqual(['one     ', '       #four']);
  });

  it('never lets a code span cross a blank line, a list item, a heading or a quote', () => {
    for (const between of ['\n\n', '\n- ', '\n## ', '\n> '])
      expect(tagsOf(`a \`b${between}#kept c\``)).toEqual(['kept']);
  });

  it('reads a paragraph of 100,000 lines of backticks in moments', () => {
    // Every other `#b` is inside a span (from one line's backtick to the next's).
    const body = '`a\n#b\n'.repeat(50_000);
    const started = performance.now();
    expect(tagsOf(body)).toHaveLength(25_000);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reads one paragraph of 500,000 short lines (a 1 MB note) without running out of stack', () => {
    const lines = proseLines('x\n'.repeat(500_000), { indentedCode: true });
    expect(lines).toHaveLength(500_001);
    expect(lines[0]).toBe('x');
  });
});

describe('textTags', () => {
  it('finds the tags the regexes found', () => {
    fc.assert(
      fc.property(fc.array(lineOf(TOKENS), { maxLength: 3 }), (lines) => {
        const body = lines.join('\n');
        expect(textTags(body, { indentedCode: true })).toEqual(oldTextTags(body));
      }),
      { numRuns: 3000 },
    );
  });

  it("finds Logseq's #[[tags]] the regex found", () => {
    const pieces = ['#[[', ']]', ']', '[', '#', ' ', '\t', '\u00a0', 'a', 'b c', '😀', '\uD800', '%'];
    fc.assert(
      fc.property(lineOf(pieces), (line) => {
        expect(textTags(line, { indentedCode: true })).toEqual(oldTextTags(line));
      }),
      { numRuns: 3000 },
    );
    for (const line of ['#[[]] #[[ ]] x', '\t#[[a b]]', '\u00a0#[[c]]', 'a#[[d]]', '#[[e]]#[[f]] #[[g]]]']) {
      expect(textTags(line, { indentedCode: true })).toEqual(oldTextTags(line));
    }
  });

  it("counts a Logseq tag's 200 characters as code points", () => {
    for (const name of [
      'a'.repeat(200),
      'a'.repeat(201),
      '😀'.repeat(200),
      '😀'.repeat(201),
      'a😀'.repeat(134),
    ]) {
      for (const line of [`#[[${name}]] #b`, `x #[[${name}]]`, `#[[${name} #[[x]]`]) {
        expect(textTags(line, { indentedCode: true })).toEqual(oldTextTags(line));
      }
    }
    expect(textTags(`#[[${'😀'.repeat(200)}]]`, { indentedCode: true })).toEqual(['😀'.repeat(200)]);
    expect(textTags(`#[[${'😀'.repeat(201)}]]`, { indentedCode: true })).toEqual([]);
  });

  it('reads a colour after `:` or `=` however far the spaces go', () => {
    const line = `color:${' '.repeat(1000)}#fade a #cafe b= #bead`;
    expect(textTags(line, { indentedCode: true })).toEqual(['cafe']);
    expect(textTags(line, { indentedCode: true })).toEqual(oldTextTags(line));
  });
});

/** A line of a million characters, `piece` over and over after `start`. */
const hostile = (piece: string, start = '') =>
  (start + piece.repeat(Math.ceil(1_000_000 / piece.length))).slice(0, 1_000_000);

/** Hostile lines: each stalled (or would stall) a regex that read on from every start. */
const HOSTILE: [string, string][] = [
  ['[[', hostile('[[')],
  ['](', hostile('](')],
  ['<', hostile('<')],
  ['backticks', hostile('`')],
  ['backticks after a letter', hostile('`', 'a')],
  ['%%', hostile('%%')],
  ['%% and line breaks', hostile('%%\r')],
  ['<!--', hostile('<!--')],
  ['a:', hostile('a:')],
  ['a.', hostile('a.')],
  ['http://', hostile('http://')],
  ['www.', hostile('www.')],
  ['#', hostile('#')],
  ['#a1', hostile('#a1 ')],
  ['#abc', hostile('#abc ')],
  ['#a/', hostile('/', '#a') + '/b'],
  ['spaces', hostile(' ')],
  ['[', hostile('[')],
  ['(', hostile('(')],
  ['[[a](', hostile('[[a](')],
  ['<code>', hostile('<code>')],
  ['<code without >', hostile('<code ')],
  ['<a', hostile('<a')],
  [' #[[', hostile(' #[[')],
  ['- ', hostile('- ')],
  ['> ', hostile('> ')],
  ['1. ', hostile('1. ')],
  ['$', hostile('$')],
  ['-', hostile('-')],
  [':', hostile(':')],
];

describe('a line of a million characters', () => {
  // A bound, not a benchmark: each takes tens of milliseconds of CPU; the regexes took minutes.
  it.each(HOSTILE)('of %s is masked and read for tags in under a second', (_, line) => {
    expect(cpuMs(() => maskInline(line))).toBeLessThan(1000);
    expect(cpuMs(() => textTags(line, { indentedCode: true }))).toBeLessThan(1000);
  });
});
