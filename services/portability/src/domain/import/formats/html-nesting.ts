import type { StyleMarks } from './html-dom';
import {
  CELLS,
  CLOSES_P,
  FORMATTING,
  HEADINGS,
  isLetter,
  LIST_SCOPE,
  NAME,
  NO_REOPEN,
  P_SCOPE,
  PAGE,
  RAW,
  rawTextEnd,
  readTag,
  ROW_SCOPE,
  ROWS,
  SCOPE,
  SECTIONS,
  SKIPPED,
  SPECIAL,
  TABLE_PARTS,
  TABLE_SCOPE,
  VOID,
  type Tag,
} from './html-tags';
import { MAX_ELEMENTS, TreeWriter } from './html-tree-writer';

/**
 * The HTML rewritten so that the tree an HTML parser builds from it nests at most `maxDepth` deep
 * (plus empty elements like `<a name="top"></a>` at the bottom) and has at most `MAX_ELEMENTS`
 * elements: every tag re-written by us and closed explicitly, in order, so the parser's tree is the
 * one tracked here, built in linear time. Tags past those bounds are dropped (their text kept); so
 * are comments, doctypes, scripts, styles, end tags that close nothing, and unused attributes.
 * What the parser does to sloppy HTML is done here: omitted end tags (`<p>`, `<li>`, `<td>`…) are
 * closed where it would close them, so such HTML does not grow deep, and formatting closed early
 * (`<p><b>1</p>2`) is reopened where it would reopen it.
 */
export function boundNesting(
  html: string,
  maxDepth: number,
  styleMarks: StyleMarks,
): { html: string; text: number; work: number } {
  const tree = new TreeWriter(html, maxDepth, styleMarks);
  /** Where the text not yet written starts. */
  let text = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const comment = commentEnd(html, lt);
    if (comment !== null) {
      tree.writeText(text, lt);
      i = text = comment;
      continue;
    }
    const c = html.charCodeAt(lt + 1);
    if (!isLetter(c) && c !== 47) {
      i = lt + 1;
      continue;
    }
    const tag = readTag(html, lt, styleMarks);
    // A tag left open at the end: kept as text rather than dropped with all that follows it.
    if (!tag) break;
    tree.writeText(text, lt);
    i = text = writeTag(tree, tag);
  }
  tree.writeText(text, html.length);
  tree.closeFrom(0);
  return { html: tree.out.join(''), text: tree.textLength, work: tree.work };
}

/**
 * Where what the `<` at `lt` starts ends when the HTML parser reads it as a comment (a comment,
 * `<!doctype>`, `<?xml?>`, `<![CDATA[…]]>`, `</ 3>`), else null.
 */
function commentEnd(html: string, lt: number): number | null {
  if (html.startsWith('!--', lt + 1)) {
    const close = html.indexOf('-->', lt + 2);
    return close < 0 ? html.length : close + 3;
  }
  const c = html.charCodeAt(lt + 1);
  if (c === 33 || c === 63 || (c === 47 && !isLetter(html.charCodeAt(lt + 2)))) {
    const close = html.indexOf('>', lt + 1);
    return close < 0 ? html.length : close + 1;
  }
  return null;
}

/** Writes what `tag` does to the tree; returns where reading goes on. */
function writeTag(tree: TreeWriter, tag: Tag): number {
  if (!NAME.test(tag.name) || PAGE.has(tag.name)) return tag.next;
  if (!tag.end) return startTag(tree, tag);
  endTag(tree, tag.name);
  return tag.next;
}

const startOf = (tag: Tag) => `<${tag.name}${tag.attributes}>`;

/** A start tag; returns where reading goes on. */
function startTag(tree: TreeWriter, tag: Tag): number {
  const { name } = tag;
  const ignored = ignoredStart(tree, tag);
  if (ignored !== null) return ignored;
  if (tree.dropped.count === 0) {
    closeImplied(tree, name);
    if (!NO_REOPEN.has(name)) tree.reopen();
  }
  const full = tree.elements >= MAX_ELEMENTS;
  // XHTML (ENML) is XML: `<div/>` is an empty div, where an HTML parser would wrap all that follows
  // in it. An end tag says so to it.
  const empty = VOID.has(name) || tag.selfClosing;
  if (empty && !full) {
    tree.writeElement(VOID.has(name) ? startOf(tag) : `${startOf(tag)}</${name}>`);
    return tag.next;
  }
  const kept = !full && tree.dropped.count === 0 && tree.open.length < tree.maxDepth;
  if (RAW.has(name)) return writeRawText(tree, tag, kept);
  if (kept) {
    tree.openElement(name, startOf(tag));
    return tag.next;
  }
  const emptyEnd = full ? null : emptyElementEnd(tree, tag);
  if (emptyEnd !== null) return emptyEnd;
  tree.drop(name);
  if (!empty) tree.dropped.add(name);
  return tag.next;
}

/** Where reading goes on after a start tag that writes no element, or null when it may write one. */
function ignoredStart(tree: TreeWriter, tag: Tag): number | null {
  const { name } = tag;
  if (SKIPPED.has(name)) return tag.selfClosing ? tag.next : rawTextEnd(tree.html, tag.next, name);
  // Everything after an (obsolete) `<plaintext>` is its text, even our end tags: written as text.
  if (name === 'plaintext') {
    tree.writeText(tag.next, tree.html.length);
    return tree.html.length;
  }
  // Outside a table the parser ignores the parts of one.
  if ((TABLE_PARTS.has(name) || name === 'col') && !tree.isOpen('table')) return tag.next;
  return null;
}

/** An element of raw text (`<textarea>`), written when `kept`, else its text; where reading goes on. */
function writeRawText(tree: TreeWriter, tag: Tag, kept: boolean): number {
  const { html } = tree;
  const end = rawTextEnd(html, tag.next, tag.name);
  if (kept) tree.writeRaw(startOf(tag), tag.next, end, `</${tag.name}>`);
  else tree.writeText(tag.next, end);
  return end < html.length ? (readTag(html, end, tree.styleMarks)?.next ?? html.length) : end;
}

/**
 * An element with no room to open, written when it is empty at the bottom (a checkbox, an anchor):
 * no deeper than its parent's other children. Where reading goes on, or null when it is not empty.
 */
function emptyElementEnd(tree: TreeWriter, tag: Tag): number | null {
  const closing = `</${tag.name}>`;
  if (tree.html.slice(tag.next, tag.next + closing.length).toLowerCase() !== closing) return null;
  tree.writeElement(startOf(tag) + closing);
  return tag.next + closing.length;
}

/** What the HTML parser closes before opening `name` (omitted end tags). */
function closeImplied(tree: TreeWriter, name: string): void {
  if (CLOSES_P.has(name)) {
    const p = tree.find((n) => n === 'p', P_SCOPE);
    if (p >= 0) tree.closeFrom(p);
  }
  if (name === 'li' || name === 'dd' || name === 'dt') closeListItem(tree, name);
  else if (HEADINGS.has(name)) closeHeading(tree);
  else if (name === 'a') endLink(tree);
  else if (name === 'option' || name === 'optgroup') closeOption(tree, name);
  else if (TABLE_PARTS.has(name)) closeTablePart(tree, name);
}

/** An item (`li`, or `dd`/`dt`) closes the open item of its list. */
function closeListItem(tree: TreeWriter, name: string): void {
  const same = name === 'li' ? (n: string) => n === 'li' : (n: string) => n === 'dd' || n === 'dt';
  for (let i = tree.open.length - 1; i >= 0; i--) {
    const n = tree.open[i]!.name;
    if (same(n)) tree.closeFrom(i);
    if (same(n) || (SPECIAL.has(n) && n !== 'address' && n !== 'div' && n !== 'p')) break;
  }
}

/** A heading closes a heading it is right in. */
function closeHeading(tree: TreeWriter): void {
  const top = tree.open[tree.open.length - 1]?.name;
  if (top && HEADINGS.has(top)) tree.closeFrom(tree.open.length - 1);
}

/** A link in effect ends; past a block, the parser moves it rather than close the block. */
function endLink(tree: TreeWriter): void {
  const link = tree.active.named('a');
  if (link?.open) {
    const i = tree.open.findLastIndex((element) => element.formatting === link);
    if (i >= 0 && !tree.open.slice(i + 1).some((element) => SPECIAL.has(element.name))) tree.closeFrom(i);
  }
  if (link) tree.active.forget(link);
}

function closeOption(tree: TreeWriter, name: string): void {
  if (tree.open[tree.open.length - 1]?.name === 'option') tree.closeFrom(tree.open.length - 1);
  if (name === 'optgroup' && tree.open[tree.open.length - 1]?.name === 'optgroup')
    tree.closeFrom(tree.open.length - 1);
}

/** A row closes the open row, a cell the open cell, a section the open section, within their table. */
function closeTablePart(tree: TreeWriter, name: string): void {
  const same = name === 'tr' ? ROWS : CELLS.has(name) ? CELLS : SECTIONS;
  const i = tree.find((n) => same.has(n), CELLS.has(name) ? ROW_SCOPE : TABLE_SCOPE);
  if (i >= 0) tree.closeFrom(i);
}

/** An end tag. */
function endTag(tree: TreeWriter, name: string): void {
  if (tree.dropped.take(name)) return tree.drop(name);
  const formatting = FORMATTING.has(name) ? tree.active.named(name) : null;
  // Formatting closed early: its end tag only ends it.
  if (formatting && !formatting.open) return tree.active.forget(formatting);
  const i = endedElement(tree, name, formatting !== null);
  if (i >= 0) {
    const ended = tree.open[i]!.formatting;
    tree.closeFrom(i);
    // What it closed inside it is reopened after it (`<b>1<i>2</b>3</i>`: 3 is in italics).
    if (ended) tree.active.forget(ended);
    return;
  }
  // Closing nothing, it is ignored, but for the line the parser makes of `</p>` and `</br>`.
  if (name !== 'p' && name !== 'br') return;
  if (tree.elements >= MAX_ELEMENTS) return tree.drop(name);
  if (name === 'br') tree.reopen();
  tree.writeElement(name === 'p' ? '<p></p>' : '<br>');
}

/** The index of the open element the end tag `</name>` closes, or -1. */
function endedElement(tree: TreeWriter, name: string, formatting: boolean): number {
  if (HEADINGS.has(name)) return tree.find((n) => HEADINGS.has(n), SCOPE);
  if (name === 'li') return tree.find((n) => n === 'li', LIST_SCOPE);
  if (name === 'p') return tree.find((n) => n === 'p', P_SCOPE);
  if (name === 'table' || TABLE_PARTS.has(name)) return tree.find((n) => n === name, TABLE_SCOPE);
  // Formatting ends through blocks (the parser's adoption agency; ENML never misnests).
  if (SPECIAL.has(name) || formatting) return tree.find((n) => n === name, SCOPE);
  return tree.find((n) => n === name, SPECIAL);
}
