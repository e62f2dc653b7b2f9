import {
  ahead,
  blankSpans,
  boundaryBefore,
  endsUrl,
  hasWordAt,
  isLetter,
  isScheme,
  isSpace,
  isWord,
  nextLineBreak,
} from './prose-scan';

/*
 * The passes that blank what is not prose within a line: inline code, comments, HTML tags, URLs and
 * link targets (see prose.ts, which reads the note's blocks).
 */

/**
 * One prose line with inline code, comments, HTML tags, URLs and link targets blanked out. The
 * passes run in order, each on the output of the one before (what one blanks is spaces to the
 * next). Each pass is linear in the line: a long hostile line (a million `[[`) must not stall an
 * import, as the regexes these passes replace did.
 */
export function maskInline(line: string): string {
  return masked(line, PASSES);
}

export function masked(line: string, passes: Pass[]): string {
  let text = line;
  for (const pass of passes) {
    const spans = pass(text);
    if (spans.length > 0) text = blankSpans(text, spans);
  }
  return text.replace(/\\#/g, '  ');
}

/** Each pass gives the spans to blank as [start, end, start, end, …], left to right. */
export type Pass = (text: string) => number[];

/** The passes after inline code (see maskParagraph, which finds it over a paragraph's lines). */
export const AFTER_CODE: Pass[] = [
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

const BACKTICK = 96;

/**
 * Inline code, as the regex /(`+)(?:(?!\1)[\s\S])*?\1/g read it: at a backtick the longest opener
 * is tried first, shorter ones after, and an opener of k backticks closes at the first k backticks
 * after it (even inside a longer run).
 */
export function codeSpans(text: string): number[] {
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
