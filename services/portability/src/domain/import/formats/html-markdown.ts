// @ts-expect-error -- the package's types declare `module 'domino'`, not its published name.
import domino from '@mixmark-io/domino';
import TurndownService from 'turndown';
import { BLOCK, FLAT, LAYOUT_TABLE, STRUCK, type StyleMarks } from './html-dom';
import { boundNesting } from './html-nesting';
import { boundIndentation, boundWhitespace, flatten, pruneBlank, structureBlocks } from './html-passes';

// What a dialect's conversion (enml-markdown.ts) builds on.
export { BLOCK, ELEMENT_NODE, FLAT, TEXT_NODE, traverse, type StyleMarks } from './html-dom';

/**
 * How deep elements may nest below the note's root. turndown and domino walk the DOM recursively
 * (`process`, `textContent`, `cloneNode`), and domino's tree builder scans its whole stack of open
 * elements for each tag, so a note nested 100,000 deep overflows the stack or takes minutes.
 * Past this depth an element is replaced by its children: its text stays, its formatting goes.
 */
const MAX_DEPTH = 64;
/**
 * How much text turndown may copy: each element copies its text a few times (`textContent`,
 * trimming, joining), so a megabyte of text 64 deep is copied hundreds of times. A note with more
 * text than this over its depth is bounded to a shallower depth (never less than MIN_DEPTH).
 */
const MAX_TEXT_WORK = 16_000_000;
const MIN_DEPTH = 8;

/**
 * What a kind of HTML (ENML) adds to the conversion: each step is given the tree as it stands then.
 */
export interface HtmlDialect {
  /** Its turndown service, made by `createTurndown` with rules of its own. */
  turndown: TurndownService;
  /** What its `style` attributes say that its rules read, as data attributes (`style` is dropped). */
  styleMarks?: StyleMarks;
  /** Its own blocks made into what turndown writes as they mean, before the tree is bounded. */
  prepare?: (root: Element) => void;
  /** Its empty elements that write text (a checkbox): no whitespace is counted past one. */
  visible?: ReadonlySet<string>;
}

/** `text` without the line breaks at its start and end (a scan: `/\n+$/` is quadratic on a run). */
export function trimNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '\n') start++;
  while (end > start && text[end - 1] === '\n') end--;
  return text.slice(start, end);
}

/**
 * A turndown service with the rules any HTML needs: tables, strikethrough, the lists and quotes
 * written flat. `blank` writes an empty element of a dialect (null: as turndown would).
 */
export function createTurndown(blank: (node: HTMLElement) => string | null = () => null): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    // An empty element is handed to this rather than to any rule.
    blankReplacement: (_content, node) =>
      blank(node as HTMLElement) ?? ((node as { isBlock?: boolean }).isBlock ? '\n\n' : ''),
  });
  service.remove(['script', 'style']);
  addTableRules(service);
  // GFM's strikethrough: `<s>`, `<strike>`, `<del>`, and text a style strikes through.
  service.addRule('strikethrough', {
    filter: (node) =>
      ['S', 'STRIKE', 'DEL'].includes(node.nodeName) ||
      (node.hasAttribute(STRUCK) && !BLOCK.has(node.nodeName)),
    replacement: (content) => (content.trim() ? `~~${content}~~` : content),
  });
  service.addRule('flat', {
    filter: (node) => node.hasAttribute(FLAT),
    replacement: (content) => `\n\n${content}\n\n`,
  });
  return service;
}

/**
 * Data tables as GFM tables: a line per row, the first row as the header, each cell's text on one
 * line (its line breaks as `<br>`, its `|` escaped). A table holding tables lays them out (web
 * clips): its cells are written one after the other, the tables in them as tables.
 */
function addTableRules(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && inDataTable(node),
    replacement: (content) => {
      const lines = content
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.length > 0);
      return `| ${lines.join('<br>').replace(/\|/g, '\\|')} `;
    },
  });
  service.addRule('tableRow', {
    filter: (node) => node.nodeName === 'TR' && inDataTable(node),
    replacement: (content, node) => {
      if (!content) return '';
      const layout = layoutOf(node);
      if (layout?.header !== node) return `\n${content}|\n`;
      // A GFM table has as many columns as its header: the header has as many as the widest row.
      const missing = '|  '.repeat(layout.columns - layout.headerCells);
      return `\n${content}${missing}|\n|${' --- |'.repeat(layout.columns)}\n`;
    },
  });
  service.addRule('table', {
    filter: (node) => node.nodeName === 'TABLE' && !node.hasAttribute(LAYOUT_TABLE),
    replacement: (content) => `\n\n${trimNewlines(content)}\n\n`,
  });
  service.addRule('tableCaption', {
    filter: 'caption',
    replacement: (content) => `\n\n${content}\n\n`,
  });
}

/** The table `node` (a row or a cell) is part of, if any (flatten may leave parts out of one). */
function tableOf(node: Node): Element | null {
  let parent = node.parentNode;
  for (let up = 0; parent && up < 3; up++, parent = parent.parentNode)
    if (parent.nodeName === 'TABLE') return parent as Element;
  return null;
}
/** A part of a data table, not of one laying out others (whose cells are written as blocks). */
const inDataTable = (node: Node) => !tableOf(node)?.hasAttribute(LAYOUT_TABLE);

/** A table's header row (its first with a cell), that row's cells, and its widest row's. */
interface Layout {
  header: Node | null;
  headerCells: number;
  columns: number;
}
/** The layout of each table met. */
const layouts = new WeakMap<Node, Layout>();
/** The layout of the table `row` is a row of (null when it is in none, as flatten may leave it). */
function layoutOf(row: Node): Layout | null {
  let table = row.parentNode;
  if (table && table.nodeName !== 'TABLE') table = table.parentNode;
  if (!table || table.nodeName !== 'TABLE') return null;
  let layout = layouts.get(table);
  if (!layout) {
    const found: Layout = { header: null, headerCells: 0, columns: 0 };
    const measure = (tr: Element) => {
      let cells = 0;
      for (let cell = tr.firstElementChild; cell; cell = cell.nextElementSibling)
        if (cell.nodeName === 'TD' || cell.nodeName === 'TH') cells++;
      if (cells > 0 && !found.header) {
        found.header = tr;
        found.headerCells = cells;
      }
      found.columns = Math.max(found.columns, cells);
    };
    for (let child = (table as Element).firstElementChild; child; child = child.nextElementSibling) {
      if (child.nodeName === 'TR') measure(child);
      else if (['THEAD', 'TBODY', 'TFOOT'].includes(child.nodeName))
        for (let tr = child.firstElementChild; tr; tr = tr.nextElementSibling)
          if (tr.nodeName === 'TR') measure(tr);
    }
    layout = found;
    layouts.set(table, layout);
  }
  return layout;
}

/**
 * The tree an HTML parser (domino) builds from `boundNesting`'s rewrite of `html`, and how deep it
 * may nest: less than MAX_DEPTH when its text would cost turndown more than MAX_TEXT_WORK.
 */
function parseBounded(html: string, styleMarks: StyleMarks): { root: HTMLElement; depth: number } | null {
  let bounded = boundNesting(html, MAX_DEPTH, styleMarks);
  let depth = MAX_DEPTH;
  if (bounded.work > MAX_TEXT_WORK) {
    depth = Math.max(MIN_DEPTH, Math.floor(MAX_TEXT_WORK / bounded.text));
    bounded = boundNesting(html, depth, styleMarks);
  }
  // Wrapped as turndown wraps a string, so nothing is moved into <head>.
  const document = (domino as { createDocument(html: string): Document }).createDocument(
    `<x-turndown id="turndown-root">${bounded.html}</x-turndown>`,
  );
  const root = document.getElementById('turndown-root');
  return root ? { root, depth } : null;
}

const noMarks: StyleMarks = () => '';
const nothingVisible: ReadonlySet<string> = new Set();

/**
 * HTML as Markdown, in time linear in its size however it nests: domino parses `boundNesting`'s
 * rewrite, the dialect makes its own blocks plain HTML, the passes of html-passes.ts bound what
 * turndown would spend on the tree, then the dialect's turndown converts it.
 */
export function convertHtml(html: string, dialect: HtmlDialect): string {
  const parsed = parseBounded(html, dialect.styleMarks ?? noMarks);
  if (!parsed) return '';
  const { root, depth } = parsed;
  flatten(root, depth);
  dialect.prepare?.(root);
  structureBlocks(root);
  pruneBlank(root);
  boundIndentation(root);
  boundWhitespace(root, dialect.visible ?? nothingVisible);
  return dialect.turndown.turndown(root);
}

const html: HtmlDialect = { turndown: createTurndown() };

/** Any HTML note as Markdown (Joplin's HTML notes); ENML has its own in `enml-markdown.ts`. */
export const htmlToMarkdown = (text: string): string => convertHtml(text, html);
