/**
 * The prose of a Markdown note, line by line, with everything that is not prose blanked out (code
 * blocks, inline code, math, comments, HTML tags, URLs, link targets), so a `#` in any of them is
 * never read as a tag. Blanked text becomes spaces, so what is left keeps its place on the line.
 */
import { isRegExpSpace } from './unicode';

// A fence may follow list bullets or quote marks (Logseq writes every block as a bullet).
const FENCE = /^\s*(?:(?:[-*+]|\d+[.)])\s+|>\s?)*(`{3,}|~{3,})/;
const FENCE_CLOSE = /^\s*(?:(?:[-*+]|\d+[.)])\s+|>\s?)*(`{3,}|~{3,})\s*$/;
// Logseq/Org blocks: #+BEGIN_SRC, #+BEGIN_EXAMPLE, #+BEGIN_QUERY … #+END_…
const ORG_BLOCK = /^\s*(?:[-*+]\s+)?#\+BEGIN_(\w+)/i;
const RAW_HTML = /^\s*<(style|script|pre|svg)\b/i;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d+[.)])\s/;
const INDENTED = /^(?: {4}|\t)/;

const blank = (s: string) => ' '.repeat(s.length);
/** How many times `token` occurs in `line`, apart (as `match(/token/g)`, without its array). */
function count(line: string, token: string): number {
  let n = 0;
  for (let at = line.indexOf(token); at !== -1; at = line.indexOf(token, at + token.length)) n++;
  return n;
}

/**
 * One prose line with inline code, comments, HTML tags, URLs and link targets blanked out. The
 * passes run in order, each on the output of the one before (what one blanks is spaces to the
 * next). Each pass is linear in the line: a long hostile line (a million `[[`) must not stall an
 * import, as the regexes these passes replace did.
 */
export function maskInline(line: string): string {
  return masked(line, PASSES);
}

function masked(line: string, passes: Pass[]): string {
  let text = line;
  for (const pass of passes) {
    const spans = pass(text);
    if (spans.length > 0) text = blankSpans(text, spans);
  }
  return text.replace(/\\#/g, '  ');
}

/** Each pass gives the spans to blank as [start, end, start, end, …], left to right. */
type Pass = (text: string) => number[];

/** The passes after inline code (see maskParagraph, which finds it over a paragraph's lines). */
const AFTER_CODE: Pass[] = [
  codeElements,
  between('%%', '%%'),
  between('<!--', '-->'),
  htmlTags,
  linkTargets,
  wikilinks,
  referenceDefinition,
  urls,
  wwwLinks,
];
const PASSES: Pass[] = [codeSpans, ...AFTER_CODE];

/** `text` with the spans ([start, end, …], in order, not overlapping) replaced by as many spaces. */
export function blankSpans(text: string, spans: number[]): string {
  const parts: string[] = [];
  let kept = 0;
  let k = 0;
  while (k < spans.length) {
    const start = spans[k]!;
    let end = spans[k + 1]!;
    k += 2;
    // Spans that touch are blanked as one (a line of `%%%%…` makes a span every four characters).
    while (k < spans.length && spans[k] === end) {
      end = spans[k + 1]!;
      k += 2;
    }
    parts.push(text.slice(kept, start), ' '.repeat(end - start));
    kept = end;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

/**
 * `search` (an indexOf, -1 for none) asked at non-decreasing starts: the first hit at or after
 * `from`, Infinity for none. A hit answers every later start up to it, so all the searches of one
 * pass read the line at most once (searching again from each start is what made it quadratic).
 */
export function ahead(search: (from: number) => number): (from: number) => number {
  let hit = -1;
  return (from) => {
    if (from > hit) {
      const found = search(from);
      hit = found === -1 ? Infinity : found;
    }
    return hit;
  };
}

const BACKTICK = 96;

const isSpace = isRegExpSpace;

/** What a regex's `.` does not match. */
const isLineBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** `\w` (ASCII, as in a regex without the `u` flag), for `\b`. */
const isWord = (c: number) => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
/** `[a-z0-9+.-]` with the `i` flag: a URL scheme. */
const isScheme = (c: number) => (isWord(c) && c !== 0x5f) || c === 0x2b || c === 0x2e || c === 0x2d;
/** `[\s<>()]`: what ends a URL. */
const endsUrl = (c: number) => isSpace(c) || c === 0x3c || c === 0x3e || c === 0x28 || c === 0x29;
/** A word boundary before `i` when `text[i]` is a word character. */
const boundaryBefore = (text: string, i: number) => i === 0 || !isWord(text.charCodeAt(i - 1));

function nextLineBreak(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (isLineBreak(text.charCodeAt(i))) return i;
  return -1;
}

/** Whether `text` has `word` (lower case ASCII) at `at`, in any case. */
function hasWordAt(text: string, word: string, at: number): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(at + k);
    // Only an ASCII letter's case bit maps it onto a lower case letter.
    if ((isLetter(c) ? c | 0x20 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * Inline code, as the regex /(`+)(?:(?!\1)[\s\S])*?\1/g read it: at a backtick the longest opener
 * is tried first, shorter ones after, and an opener of k backticks closes at the first k backticks
 * after it (even inside a longer run).
 */
function codeSpans(text: string): number[] {
  const spans: number[] = [];
  let i = text.indexOf('`');
  if (i === -1) return spans;
  const n = text.length;
  // run[j]: backticks from j on; longest[j]: the longest such run at or after j.
  const run = new Int32Array(n + 1);
  const longest = new Int32Array(n + 1);
  for (let j = n - 1; j >= 0; j--) {
    run[j] = text.charCodeAt(j) === BACKTICK ? run[j + 1]! + 1 : 0;
    longest[j] = Math.max(run[j]!, longest[j + 1]!);
  }
  while (i !== -1) {
    // Within the opener's own run, half of it always closes, so this loop is within the match.
    let k = run[i]!;
    while (k > 0 && longest[i + k]! < k) k--;
    if (k === 0) break; // a lone backtick, the last one
    let close = i + k;
    while (run[close]! < k) close++;
    spans.push(i, close + k);
    i = text.indexOf('`', close + k);
  }
  return spans;
}

const ELEMENTS = ['code', 'style', 'script'];

/** Which of ELEMENTS's names `text` has at `at` (in any case), or -1. */
function elementAt(text: string, at: number): number {
  const first = text.charCodeAt(at) | 0x20;
  if (first === 0x63) return hasWordAt(text, 'code', at) ? 0 : -1;
  if (first !== 0x73) return -1;
  return hasWordAt(text, 'style', at) ? 1 : hasWordAt(text, 'script', at) ? 2 : -1;
}

/** `/<(code|style|script)\b[^>]*>.*?<\/\1>/gi`: an element closed on the same line. */
function codeElements(text: string): number[] {
  const spans: number[] = [];
  let i = text.indexOf('<');
  if (i === -1) return spans;
  const nextGt = ahead((from) => text.indexOf('>', from));
  const nextBreak = ahead((from) => nextLineBreak(text, from));
  const nextClose = ELEMENTS.map((name) =>
    ahead((from) => {
      for (let at = text.indexOf('</', from); at !== -1; at = text.indexOf('</', at + 1)) {
        if (hasWordAt(text, name, at + 2) && text.charCodeAt(at + 2 + name.length) === 0x3e) return at;
      }
      return -1;
    }),
  );
  while (i !== -1) {
    const e = elementAt(text, i + 1);
    if (e !== -1 && !isWord(text.charCodeAt(i + 1 + ELEMENTS[e]!.length))) {
      const gt = nextGt(i + 1);
      if (gt === Infinity) break;
      const close = nextClose[e]!(gt + 1);
      if (close < nextBreak(gt + 1)) {
        const end = close + ELEMENTS[e]!.length + 3;
        spans.push(i, end);
        i = text.indexOf('<', end);
        continue;
      }
    }
    i = text.indexOf('<', i + 1);
  }
  return spans;
}

/** `/open.*?close/g`: from `open` to the first `close` after it, on the same line. */
function between(open: string, close: string): Pass {
  return (text) => {
    const spans: number[] = [];
    let i = text.indexOf(open);
    if (i === -1) return spans;
    const nextClose = ahead((from) => text.indexOf(close, from));
    const nextBreak = ahead((from) => nextLineBreak(text, from));
    while (i !== -1) {
      const end = nextClose(i + open.length);
      if (end === Infinity) break;
      if (end < nextBreak(i + open.length)) {
        spans.push(i, end + close.length);
        i = text.indexOf(open, end + close.length);
      } else {
        i = text.indexOf(open, i + 1);
      }
    }
    return spans;
  };
}

/** `/<\/?[A-Za-z][^<>]*>/g`: an HTML tag. */
function htmlTags(text: string): number[] {
  const spans: number[] = [];
  const n = text.length;
  let i = text.indexOf('<');
  while (i !== -1) {
    let j = i + 1;
    if (text.charCodeAt(j) === 0x2f) j++;
    if (!isLetter(text.charCodeAt(j))) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    let end = j + 1;
    while (end < n && text[end] !== '<' && text[end] !== '>') end++;
    if (text[end] === '>') {
      spans.push(i, end + 1);
      i = text.indexOf('<', end + 1);
    } else {
      // The scan stopped at the next `<` (or the end), so no `<` was skipped.
      i = end < n ? end : -1;
    }
  }
  return spans;
}

/** `/\]\([^)]*\)/g`: a Markdown link target. */
function linkTargets(text: string): number[] {
  const spans: number[] = [];
  for (let i = text.indexOf(']('); i !== -1;) {
    const end = text.indexOf(')', i + 2);
    if (end === -1) break;
    spans.push(i, end + 1);
    i = text.indexOf('](', end + 1);
  }
  return spans;
}

/** `/(?<!#)\[\[[^\]]*\]\]/g`: a wikilink (`[[Page#Heading]]`), but not Logseq's `#[[tag]]`. */
function wikilinks(text: string): number[] {
  const spans: number[] = [];
  const nextBracket = ahead((from) => text.indexOf(']', from));
  for (let i = text.indexOf('[['); i !== -1;) {
    if (i === 0 || text[i - 1] !== '#') {
      const end = nextBracket(i + 2);
      if (end === Infinity) break;
      if (text[end + 1] === ']') {
        spans.push(i, end + 2);
        i = text.indexOf('[[', end + 2);
        continue;
      }
    }
    i = text.indexOf('[[', i + 1);
  }
  return spans;
}

/** `/^\s*\[[^\]]+\]:\s*\S+/`: a reference definition `[id]: url`. */
function referenceDefinition(text: string): number[] {
  const n = text.length;
  let i = 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (text[i] !== '[') return [];
  const close = text.indexOf(']', i + 1);
  if (close <= i + 1 || text[close + 1] !== ':') return [];
  let end = close + 2;
  while (end < n && isSpace(text.charCodeAt(end))) end++;
  if (end === n) return [];
  while (end < n && !isSpace(text.charCodeAt(end))) end++;
  return [0, end];
}

/** `\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()]*` (ignoring case): a URL with a scheme. */
function urls(text: string): number[] {
  const spans: number[] = [];
  if (!text.includes('://')) return spans;
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isLetter(text.charCodeAt(i)) || !boundaryBefore(text, i)) {
      i++;
      continue;
    }
    let scheme = i + 1;
    while (scheme < n && isScheme(text.charCodeAt(scheme))) scheme++;
    if (!text.startsWith('://', scheme)) {
      // Any start inside this scheme's run ends it at the same place, and fails the same way.
      i = scheme;
      continue;
    }
    let end = scheme + 3;
    while (end < n && !endsUrl(text.charCodeAt(end))) end++;
    spans.push(i, end);
    i = end;
  }
  return spans;
}

/** `/\bwww\.[^\s<>()]+/gi`: a URL without a scheme. */
function wwwLinks(text: string): number[] {
  const spans: number[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (
      hasWordAt(text, 'www.', i) &&
      boundaryBefore(text, i) &&
      i + 4 < n &&
      !endsUrl(text.charCodeAt(i + 4))
    ) {
      let end = i + 5;
      while (end < n && !endsUrl(text.charCodeAt(end))) end++;
      spans.push(i, end);
      i = end;
    } else {
      i++;
    }
  }
  return spans;
}

type Block =
  { kind: 'fence'; char: string; length: number } | { kind: 'until'; end: RegExp } | { kind: 'indented' };

/** Whether `line` ends the code block `block` (a line that ends it is still code). */
function ends(block: Block, line: string): boolean {
  if (block.kind === 'until') return block.end.test(line);
  if (block.kind === 'indented') return false;
  const close = FENCE_CLOSE.exec(line);
  return !!close && close[1]![0] === block.char && close[1]!.length >= block.length;
}

/** The code block that `line` opens, or null; a one-line block (`$$x$$`) is code too. */
function opens(line: string, indentedCode: boolean, afterBlank: boolean): Block | 'line' | null {
  const fence = FENCE.exec(line);
  if (fence) return { kind: 'fence', char: fence[1]![0]!, length: fence[1]!.length };
  const org = ORG_BLOCK.exec(line);
  if (org) return { kind: 'until', end: new RegExp(`#\\+END_${org[1]}`, 'i') };
  const html = RAW_HTML.exec(line);
  if (html) {
    const end = new RegExp(`</${html[1]}>`, 'i');
    return end.test(line) ? 'line' : { kind: 'until', end };
  }
  if (/^\s*\$\$/.test(line)) return count(line, '$$') % 2 ? { kind: 'until', end: /\$\$/ } : 'line';
  if (/^\s*%%/.test(line) && count(line, '%%') % 2) return { kind: 'until', end: /%%/ };
  if (indentedCode && afterBlank && INDENTED.test(line)) return { kind: 'indented' };
  return null;
}

/**
 * The prose lines of a note, blocks of code blanked. `indentedCode` also treats lines indented by
 * four spaces after a blank line (outside lists) as code, as CommonMark does; Logseq graphs turn it
 * off, their nesting being all indentation.
 */
export function proseLines(body: string, options: { indentedCode: boolean }): string[] {
  const out: string[] = [];
  // The prose lines of the paragraph being read, masked together when it ends.
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) out.push(...maskParagraph(paragraph));
    paragraph = [];
  };
  let block: Block | null = null;
  let previousBlank = true;
  let inList = false;
  for (const line of body.split('\n')) {
    const isBlank = line.trim() === '';
    if (block?.kind === 'indented' && !isBlank && !INDENTED.test(line)) block = null;
    let code: boolean;
    if (block) {
      code = true;
      if (ends(block, line)) block = null;
    } else {
      const opened = isBlank ? null : opens(line, options.indentedCode, previousBlank && !inList);
      code = opened !== null;
      if (opened && opened !== 'line') block = opened;
    }
    if (!isBlank) inList = LIST_ITEM.test(line) || (inList && /^\s/.test(line));
    previousBlank = isBlank;
    if (code || isBlank || BLOCK_START.test(line)) endParagraph();
    if (code || isBlank) out.push(code ? blank(line) : line);
    else paragraph.push(line);
  }
  endParagraph();
  return out;
}

/** A line that starts a block of its own (a list item, a heading, a quote): no code span reaches back across it. */
const BLOCK_START = /^\s{0,3}(?:[-*+]\s|\d+[.)]\s|#{1,6}(?:\s|$)|>)/;

/**
 * The lines of one paragraph masked: inline code is found over the whole paragraph, as Markdown
 * reads it (a code span may cross a line ending: `inside⏎#not-a-tag⏎still inside`), the other
 * passes a line at a time. Linear in the paragraph, as each pass is.
 */
function maskParagraph(lines: string[]): string[] {
  if (lines.length === 1) return [maskInline(lines[0]!)];
  const joined = lines.join('\n');
  const spans = codeSpans(joined);
  if (spans.length === 0) return lines.map((line) => masked(line, AFTER_CODE));
  const blanked = blankSpans(joined, spans);
  let at = 0;
  return lines.map((line) => {
    const piece = blanked.slice(at, at + line.length);
    at += line.length + 1;
    return masked(piece, AFTER_CODE);
  });
}
