import { BLOCK, ELEMENT_NODE, FLAT, LAYOUT_TABLE, tagSet, TEXT_NODE, traverse } from './html-dom';

/*
 * The passes over the parsed tree that bound what turndown spends on it (its depth, its blank
 * subtrees, the indentation of lists and quotes, runs of whitespace) and make its lists and
 * tables what turndown writes as they mean. Each walks the tree once, without recursion.
 */

/**
 * How long a run of whitespace the Markdown may have. turndown trims its output with
 * `/[\t\r\n\s]+$/`, which takes time quadratic in the longest run (a megabyte of `&nbsp;` or
 * `<br>` takes minutes); whitespace past this is dropped.
 */
const MAX_WHITESPACE = 256;
/**
 * How much work the indentation of lists and quotes may cost (characters re-indented, one pass per
 * level, plus each line's prefix); past it, lists and quotes become plain blocks.
 */
const MAX_INDENT_WORK = 8_000_000;

/** turndown's void and "meaningful when blank" elements: an element holding none is blank. */
const NOT_BLANK = tagSet(
  'AREA BASE BR COL COMMAND EMBED HR IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR ' +
    'A TABLE THEAD TBODY TFOOT TH TD IFRAME SCRIPT AUDIO VIDEO',
);

/**
 * Empties every element `maxDepth` below `root` of its elements' children (moved up into it), so
 * nothing nests deeper. `boundNesting` already keeps the written tags within MAX_DEPTH; the parser
 * may add a few of its own (`<tbody>`, reopened `<b>`s), and turndown's recursion must stay bounded.
 */
export function flatten(root: Node, maxDepth: number): void {
  let depth = 0;
  traverse(
    root,
    (node) => {
      if (node.nodeType !== ELEMENT_NODE) return false;
      if (++depth < maxDepth) return true;
      let child = node.firstChild;
      while (child) {
        if (child.nodeType === ELEMENT_NODE && child.firstChild) {
          const first: ChildNode = child.firstChild;
          while (child.firstChild) node.insertBefore(child.firstChild, child);
          node.removeChild(child);
          child = first;
        } else child = child.nextSibling;
      }
      depth--;
      return false;
    },
    () => depth--,
  );
}

/**
 * Empties each blank element (no text, image, link or table in it, which turndown writes as nothing
 * or a line break whatever it holds) down to its whitespace. turndown tests every element for this
 * by searching its subtree for 27 tag names: a big blank subtree costs that at every level of it.
 */
export function pruneBlank(root: Node): void {
  /** For each element being walked: whether something in it makes it not blank; whether it has text. */
  const filled: boolean[] = [];
  const texts: boolean[] = [];
  const blank: Element[] = [];
  /**
   * Empty blocks right after another: turndown's two `\n\n` make one. Only empty ones, without even
   * whitespace, whose text an inline ancestor's spacing is made of; not in an `<ol>`, which numbers
   * each item by its place among all its children.
   */
  const emptyBlocks = new Set<Node>();
  const repeated: Element[] = [];
  traverse(
    root,
    (node) => {
      if (node.nodeType === ELEMENT_NODE) {
        filled.push(NOT_BLANK.has(node.nodeName));
        texts.push(false);
        return true;
      }
      if (node.nodeType === TEXT_NODE && filled.length > 0) {
        const data = (node as Text).data;
        if (data) texts[texts.length - 1] = true;
        if (/\S/.test(data)) filled[filled.length - 1] = true;
      }
      return false;
    },
    (element) => {
      const full = filled.pop();
      const text = texts.pop();
      if (text && texts.length > 0) texts[texts.length - 1] = true;
      if (full) {
        if (filled.length > 0) filled[filled.length - 1] = true;
        return;
      }
      if (element.firstElementChild) blank.push(element);
      if (!text && BLOCK.has(element.nodeName) && element.parentNode?.nodeName !== 'OL') {
        if (element.previousSibling && emptyBlocks.has(element.previousSibling)) repeated.push(element);
        emptyBlocks.add(element);
      }
    },
  );
  for (const element of repeated) element.parentNode?.removeChild(element);
  // The outermost blank element empties those inside it.
  const blanks = new Set<Node | null>(blank);
  for (const element of blank)
    if (element.parentNode && !blanks.has(element.parentNode))
      element.textContent = element.textContent ?? '';
}

/**
 * Turns lists and quotes into plain blocks when their indentation would cost more than
 * MAX_INDENT_WORK: turndown re-indents an item's text once per level it is nested in, and prefixes
 * each of its lines, so a megabyte of lines in a deep list would become tens of megabytes.
 */
export function boundIndentation(root: Node): void {
  let work = 0;
  let prefix = 0;
  let pre = 0;
  const widths: number[] = [];
  const nested: Element[] = [];
  traverse(
    root,
    (node) => {
      if (node.nodeType === TEXT_NODE) {
        const text = (node as Text).data;
        work += text.length * (1 + widths.length);
        if (pre > 0 && prefix > 0)
          for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) work += prefix;
        return false;
      }
      if (node.nodeType !== ELEMENT_NODE) return false;
      const name = node.nodeName;
      if (BLOCK.has(name) || name === 'BR') work += prefix;
      if (name === 'LI' || name === 'BLOCKQUOTE') {
        const width = name === 'BLOCKQUOTE' ? 2 : node.parentNode?.nodeName === 'OL' ? 10 : 4;
        widths.push(width);
        prefix += width;
      }
      if (name === 'LI' || name === 'BLOCKQUOTE' || name === 'UL' || name === 'OL')
        nested.push(node as Element);
      if (name === 'PRE') pre++;
      return true;
    },
    (element) => {
      const name = element.nodeName;
      if (BLOCK.has(name)) work += prefix;
      if (name === 'LI' || name === 'BLOCKQUOTE') prefix -= widths.pop()!;
      if (name === 'PRE') pre--;
    },
  );
  // Marked rather than replaced: domino re-walks a subtree each time it is moved.
  if (work > MAX_INDENT_WORK) for (const element of nested) element.setAttribute(FLAT, '');
}

/**
 * A list written right inside a list (as Evernote and some editors nest them) moved into the item
 * before it, so it is nested in Markdown too; tables holding tables marked as laying them out.
 */
export function structureBlocks(root: Element): void {
  const nested: Element[] = [];
  /** The tables being walked, outermost first, and whether each holds a table. */
  const tables: boolean[] = [];
  traverse(
    root,
    (node) => {
      if (node.nodeType !== ELEMENT_NODE) return false;
      const element = node as Element;
      if (element.nodeName === 'TABLE') {
        if (tables.length > 0) tables[tables.length - 1] = true;
        tables.push(false);
      }
      const parent = element.parentNode?.nodeName;
      if (
        (element.nodeName === 'UL' || element.nodeName === 'OL') &&
        (parent === 'UL' || parent === 'OL') &&
        element.previousElementSibling?.nodeName === 'LI'
      )
        nested.push(element);
      return true;
    },
    (element) => {
      if (element.nodeName === 'TABLE' && tables.pop()) element.setAttribute(LAYOUT_TABLE, '');
    },
  );
  // Outermost first: each list is moved once, with what it holds.
  for (const list of nested) {
    const item = list.previousElementSibling;
    if (item?.nodeName === 'LI') item.appendChild(list);
  }
}

/** What `boundWhitespace` has counted so far of the Markdown. */
interface WhitespaceCount {
  /** Whitespace written since the last visible character. */
  run: number;
  indent: number;
  pre: number;
  widths: number[];
  /** The `<br>`s that would only add to a run already at its bound. */
  breaks: Node[];
}

/**
 * Drops whitespace past MAX_WHITESPACE in a row of the Markdown, counting the line breaks and
 * indentation turndown will write, and the `<br>`s that would only add to it.
 */
export function boundWhitespace(root: Node, visible: ReadonlySet<string>): void {
  const count: WhitespaceCount = { run: 0, indent: 0, pre: 0, widths: [], breaks: [] };
  traverse(
    root,
    (node) => {
      if (node.nodeType === TEXT_NODE) boundTextWhitespace(node as Text, count);
      else if (node.nodeType === ELEMENT_NODE) return enterForWhitespace(node as Element, count, visible);
      return false;
    },
    (element) => {
      const name = element.nodeName;
      if (BLOCK.has(name)) count.run += 2 + count.indent;
      if (name === 'LI') count.indent -= count.widths.pop()!;
      if (name === 'PRE') count.pre--;
    },
  );
  for (const br of count.breaks) br.parentNode?.removeChild(br);
}

/** The whitespace of a text node past MAX_WHITESPACE in a row dropped. */
function boundTextWhitespace(text: Text, count: WhitespaceCount): void {
  // What turndown does to text outside <pre> anyway.
  const data = count.pre > 0 ? text.data : text.data.replace(/[ \r\n\t]+/g, ' ');
  const line = count.pre > 0 ? 1 + count.indent : 1;
  let kept = '';
  let last = 0;
  for (const space of data.matchAll(/\s+/g)) {
    if (space.index > last) count.run = 0;
    let ws = space[0];
    if (count.run + ws.length * line > MAX_WHITESPACE) {
      ws = ws.slice(0, Math.max(0, Math.floor((MAX_WHITESPACE - count.run) / line)));
      count.run = MAX_WHITESPACE;
    } else count.run += ws.length * line;
    kept += data.slice(last, space.index) + ws;
    last = space.index + space[0].length;
  }
  if (last < data.length) count.run = 0;
  kept += data.slice(last);
  if (kept !== text.data) text.data = kept;
}

/** Counts the whitespace an element writes before its children; says whether to go into it. */
function enterForWhitespace(element: Element, count: WhitespaceCount, visible: ReadonlySet<string>): boolean {
  const name = element.nodeName;
  if (name === 'BR') {
    if (count.run + 3 + count.indent > MAX_WHITESPACE) count.breaks.push(element);
    else count.run += 3 + count.indent;
    return false;
  }
  if (BLOCK.has(name)) count.run += 2 + count.indent;
  if (name === 'LI') {
    const width = element.parentNode?.nodeName === 'OL' ? 10 : 4;
    count.widths.push(width);
    count.indent += width;
    count.run = 3; // after the item's marker
  }
  if (name === 'PRE') count.pre++;
  if (name === 'HR' || visible.has(name) || (name === 'IMG' && element.hasAttribute('src'))) count.run = 0;
  return true;
}
