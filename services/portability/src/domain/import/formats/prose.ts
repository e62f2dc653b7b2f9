/**
 * The prose of a Markdown note, line by line, with everything that is not prose blanked out (code
 * blocks, inline code, math, comments, HTML tags, URLs, link targets), so a `#` in any of them is
 * never read as a tag. Blanked text becomes spaces, so what is left keeps its place on the line.
 */

// A fence may follow list bullets or quote marks (Logseq writes every block as a bullet).
const FENCE = /^\s*(?:(?:[-*+]|\d+[.)])\s+|>\s?)*(`{3,}|~{3,})/;
const FENCE_CLOSE = /^\s*(?:(?:[-*+]|\d+[.)])\s+|>\s?)*(`{3,}|~{3,})\s*$/;
// Logseq/Org blocks: #+BEGIN_SRC, #+BEGIN_EXAMPLE, #+BEGIN_QUERY … #+END_…
const ORG_BLOCK = /^\s*(?:[-*+]\s+)?#\+BEGIN_(\w+)/i;
const RAW_HTML = /^\s*<(style|script|pre|svg)\b/i;
const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d+[.)])\s/;
const INDENTED = /^(?: {4}|\t)/;

const blank = (s: string) => ' '.repeat(s.length);
const count = (line: string, token: RegExp) => line.match(token)?.length ?? 0;

/** One prose line with inline code, comments, HTML tags, URLs and link targets blanked out. */
export function maskInline(line: string): string {
  return (
    line
      .replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, blank)
      .replace(/<(code|style|script)\b[^>]*>.*?<\/\1>/gi, blank)
      .replace(/%%.*?%%/g, blank)
      .replace(/<!--.*?-->/g, blank)
      .replace(/<\/?[A-Za-z][^<>]*>/g, blank)
      // Link targets and wikilinks (`[[Page#Heading]]`), but not Logseq's `#[[tag]]`.
      .replace(/\]\([^)]*\)/g, blank)
      .replace(/(?<!#)\[\[[^\]]*\]\]/g, blank)
      .replace(/^\s*\[[^\]]+\]:\s*\S+/, blank)
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()]*/gi, blank)
      .replace(/\bwww\.[^\s<>()]+/gi, blank)
      .replace(/\\#/g, '  ')
  );
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
  if (/^\s*\$\$/.test(line)) return count(line, /\$\$/g) % 2 ? { kind: 'until', end: /\$\$/ } : 'line';
  if (/^\s*%%/.test(line) && count(line, /%%/g) % 2) return { kind: 'until', end: /%%/ };
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
    out.push(code ? blank(line) : maskInline(line));
  }
  return out;
}
