/**
 * The prose of a Markdown note, line by line, with everything that is not prose blanked out (code
 * blocks, inline code, math, comments, HTML tags, URLs, link targets), so a `#` in any of them is
 * never read as a tag. Blanked text becomes spaces, so what is left keeps its place on the line.
 */
import { AFTER_CODE, codeSpans, maskInline, masked } from './prose-inline';
import { blankSpans } from './prose-scan';

export { maskInline };

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

/** Where the reading of a note's lines is, between two lines. */
interface Reading {
  /** The code block the lines are in, if any. */
  block: Block | null;
  previousBlank: boolean;
  inList: boolean;
}

/** Whether `line` is code: inside a block (the line that ends it included), or opening one. */
function isCode(reading: Reading, line: string, isBlank: boolean, indentedCode: boolean): boolean {
  // An indented block ends at the first line, not blank, that is not indented.
  if (reading.block?.kind === 'indented' && !isBlank && !INDENTED.test(line)) reading.block = null;
  if (reading.block) {
    if (ends(reading.block, line)) reading.block = null;
    return true;
  }
  const opened = isBlank ? null : opens(line, indentedCode, reading.previousBlank && !reading.inList);
  if (opened && opened !== 'line') reading.block = opened;
  return opened !== null;
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
    // One by one: spreading a paragraph of a few hundred thousand short lines into push() would
    // pass them all as arguments and overflow the stack (a 1 MB note of 'x' lines did).
    if (paragraph.length > 0) for (const masked of maskParagraph(paragraph)) out.push(masked);
    paragraph = [];
  };
  const reading: Reading = { block: null, previousBlank: true, inList: false };
  for (const line of body.split('\n')) {
    const isBlank = line.trim() === '';
    const code = isCode(reading, line, isBlank, options.indentedCode);
    if (!isBlank) reading.inList = LIST_ITEM.test(line) || (reading.inList && /^\s/.test(line));
    reading.previousBlank = isBlank;
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
