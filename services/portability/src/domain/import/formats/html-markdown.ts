// @ts-expect-error -- the package's types declare `module 'domino'`, not its published name.
import domino from '@mixmark-io/domino';
import TurndownService from 'turndown';

/**
 * How deep elements may nest below the note's root. turndown and domino walk the DOM recursively
 * (`process`, `textContent`, `cloneNode`), and domino's tree builder scans its whole stack of open
 * elements for each tag, so a note nested 100,000 deep overflows the stack or takes minutes.
 * Past this depth an element is replaced by its children: its text stays, its formatting goes.
 */
const MAX_DEPTH = 64;
/**
 * How many elements a note keeps. Real notes have hundreds (836 in the largest clip we have);
 * turndown spends ~20 µs on each, so a megabyte of `<p>` (333,000) would take seconds. Past this
 * the rest of the note is its text, a space where a tag broke the line.
 */
const MAX_ELEMENTS = 20_000;
/**
 * How long a run of whitespace the Markdown may have. turndown trims its output with
 * `/[\t\r\n\s]+$/`, which takes time quadratic in the longest run (a megabyte of `&nbsp;` or
 * `<br>` takes minutes); whitespace past this is dropped.
 */
const MAX_WHITESPACE = 256;
/**
 * How much text turndown may copy: each element copies its text a few times (`textContent`,
 * trimming, joining), so a megabyte of text 64 deep is copied hundreds of times. A note with more
 * text than this over its depth is bounded to a shallower depth (never less than MIN_DEPTH).
 */
const MAX_TEXT_WORK = 16_000_000;
const MIN_DEPTH = 8;
/**
 * How much work the indentation of lists and quotes may cost (characters re-indented, one pass per
 * level, plus each line's prefix); past it, lists and quotes become plain blocks.
 */
const MAX_INDENT_WORK = 8_000_000;

/** Marks the lists and quotes `boundIndentation` writes as plain blocks. */
export const FLAT = 'data-flat';
/** Marks a table that holds tables (see `structureBlocks`). */
const LAYOUT_TABLE = 'data-layout-table';
/** Marks text a `style` strikes through (`text-decoration: line-through`). */
const STRUCK = 'data-struck';

/** The data attributes standing for what a `style` attribute says that the Markdown keeps. */
export type StyleMarks = (style: string) => string;

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

const set = (names: string) => new Set(names.split(' '));

/** Elements that never have children (an end tag for them is not needed, `</br>` is a `<br>`). */
const VOID = set(
  'area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr',
);
/** Dropped with their text: turndown removes them anyway, and their text is not HTML. */
const SKIPPED = set('script style');
/** Text up to their end tag is not HTML (RCDATA and RAWTEXT elements). */
const RAW = set('textarea title xmp iframe noembed noframes');
/** Tags of the page around a fragment: the parser ignores them inside a body. */
const PAGE = set('html head body');
/** Where a search for an open element stops (the HTML "default scope"). */
const SCOPE = set(
  'applet caption html table td th marquee object template foreignobject desc mi mo mn ms mtext',
);
const TABLE_SCOPE = set('html table template');
/** Elements an unknown end tag cannot close past (the HTML "special" category). */
const SPECIAL = set(
  'address applet area article aside base basefont bgsound blockquote body br button caption center col ' +
    'colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 ' +
    'h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav ' +
    'noembed noframes noscript object ol p param plaintext pre script search section select source style ' +
    'summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp',
);
/** Start tags that close an open `<p>`. */
const CLOSES_P = set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer ' +
    'form h1 h2 h3 h4 h5 h6 header hgroup hr listing main menu nav ol p plaintext pre search section ' +
    'summary ul xmp li dd dt',
);
const HEADINGS = set('h1 h2 h3 h4 h5 h6');
/** Closed by their end tag through blocks (the parser's adoption agency; ENML never misnests). */
const FORMATTING = set('a b big code em font i nobr s small strike strong tt u');
const TABLE_PARTS = set('tbody thead tfoot tr td th caption colgroup');
/** The attributes the Markdown rules read; the others (mostly `style`) only cost parsing time. */
const KEPT_ATTRIBUTES = set('href src alt title start checked');

/** turndown's block elements (its `isBlock`): what breaks a line. */
export const BLOCK = set(
  'ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE ' +
    'FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES ' +
    'NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL',
);
/** Tags whose text would run into the next word's if the tag were dropped. */
const BREAKS = new Set([...[...BLOCK].map((n) => n.toLowerCase()), 'br']);
/** turndown's void and "meaningful when blank" elements: an element holding none is blank. */
const NOT_BLANK = set(
  'AREA BASE BR COL COMMAND EMBED HR IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR ' +
    'A TABLE THEAD TBODY TFOOT TH TD IFRAME SCRIPT AUDIO VIDEO',
);

const NAME = /^[a-z][a-z0-9_.:-]*$/;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

interface Tag {
  name: string;
  end: boolean;
  selfClosing: boolean;
  attributes: string;
  /** Where the tag's `>` ends. */
  next: number;
}

/**
 * The tag starting at `at` (a `<` then a letter, or `</` then a letter), or null when it never
 * ends. A linear scan, as the HTML tokenizer reads one: a quote opens a value only after `=`.
 */
function readTag(s: string, at: number, styleMarks: StyleMarks): Tag | null {
  const end = s.charCodeAt(at + 1) === 47;
  let i = at + (end ? 2 : 1);
  const nameStart = i;
  while (i < s.length && !isSpace(s.charCodeAt(i)) && s[i] !== '/' && s[i] !== '>') i++;
  const name = s.slice(nameStart, i).toLowerCase();
  let attributes = '';
  for (;;) {
    const gap = i;
    while (i < s.length && (isSpace(s.charCodeAt(i)) || s[i] === '/')) i++;
    if (i >= s.length) return null;
    if (s[i] === '>') return { name, end, selfClosing: i > gap && s[i - 1] === '/', attributes, next: i + 1 };
    const start = i++;
    while (i < s.length && !isSpace(s.charCodeAt(i)) && s[i] !== '/' && s[i] !== '>' && s[i] !== '=') i++;
    const attribute = s.slice(start, i).toLowerCase();
    let j = i;
    while (j < s.length && isSpace(s.charCodeAt(j))) j++;
    let value: string | null = null;
    if (s[j] === '=') {
      j++;
      while (j < s.length && isSpace(s.charCodeAt(j))) j++;
      const quote = s[j];
      if (quote === '"' || quote === "'") {
        const close = s.indexOf(quote, j + 1);
        if (close < 0) return null;
        value = s.slice(j + 1, close);
        i = close + 1;
      } else {
        i = j;
        while (i < s.length && !isSpace(s.charCodeAt(i)) && s[i] !== '>') i++;
        value = s.slice(j, i);
      }
    }
    // A list's `start` only numbers items: a huge one would widen every item's indentation.
    if (attribute === 'start' && !/^\s*-?\d{1,6}\s*$/.test(value ?? '')) continue;
    if (KEPT_ATTRIBUTES.has(attribute) || (attribute === 'class' && name === 'code'))
      attributes += value === null ? ` ${attribute}` : ` ${attribute}="${value.replace(/"/g, '&quot;')}"`;
    else if (attribute === 'style' && value) attributes += ownStyleMarks(value) + styleMarks(value);
  }
}

/** The data attributes standing for what a `style` says that any HTML's Markdown keeps. */
function ownStyleMarks(style: string): string {
  // Only `text-decoration` says `line-through`; a longer pattern could backtrack on hostile styles.
  return /line-through/i.test(style) ? ` ${STRUCK}` : '';
}

/** Where the raw text of a `<name>` element ends: its end tag, or the end of the input. */
function rawTextEnd(s: string, from: number, name: string): number {
  const close = new RegExp(`</${name}[\\s/>]`, 'gi');
  close.lastIndex = from;
  return close.exec(s)?.index ?? s.length;
}

const P_SCOPE = new Set([...SCOPE, 'button']);
const LIST_SCOPE = new Set([...SCOPE, 'ol', 'ul']);
const ROW_SCOPE = set('tr table html template');
const ROWS = set('tr');
const CELLS = set('td th');
const SECTIONS = set('tbody thead tfoot caption colgroup');
/** Where formatting opened before stops being reopened (the "markers" of the parser's list). */
const MARKERS = set('td th caption applet marquee object template');
/** Start tags before which the parser does not reopen formatting: blocks and tables. */
const NO_REOPEN = set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer ' +
    'header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing form li ' +
    'dd dt table caption colgroup col tbody thead tfoot tr td th hr textarea iframe noembed noframes ' +
    'param source track',
);
/** How many formatting elements may wait to be reopened (the parser keeps at most 3 alike). */
const MAX_ACTIVE = 64;

/** A formatting element in effect, whether or not it is open now (HTML's "active formatting"). */
interface Formatting {
  name: string;
  tag: string;
  open: boolean;
}
interface OpenElement {
  name: string;
  formatting: Formatting | null;
}

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
function boundNesting(
  html: string,
  maxDepth: number,
  styleMarks: StyleMarks,
): { html: string; text: number; work: number } {
  const out: string[] = [];
  /** Characters of text written, and of text times the depth it is written at. */
  let textLength = 0;
  let work = 0;
  /** Open elements, outermost first (never more than maxDepth). */
  const open: OpenElement[] = [];
  /** The formatting in effect, a null for each marker. */
  let active: Array<Formatting | null> = [];
  /** Start tags dropped below the deepest open element, by name, not yet closed. */
  let dropped = new Map<string, number>();
  let droppedCount = 0;
  /** Elements written (at most MAX_ELEMENTS). */
  let elements = 0;
  /** Where the text not yet written starts. */
  let text = 0;

  const room = () => elements < MAX_ELEMENTS && open.length < maxDepth;
  const find = (match: (name: string) => boolean, stop: Set<string>) => {
    for (let i = open.length - 1; i >= 0; i--) {
      if (match(open[i]!.name)) return i;
      if (stop.has(open[i]!.name)) return -1;
    }
    return -1;
  };
  /** The latest formatting named `name` since the last marker. */
  const activeNamed = (name: string) => {
    for (let k = active.length - 1; k >= 0 && active[k] !== null; k--)
      if (active[k]!.name === name) return active[k]!;
    return null;
  };
  const forget = (formatting: Formatting) => {
    const k = active.lastIndexOf(formatting);
    if (k >= 0) active.splice(k, 1);
  };
  const openElement = (name: string, tag: string) => {
    elements++;
    out.push(tag);
    let formatting: Formatting | null = null;
    if (FORMATTING.has(name)) {
      // As the parser: no more than 3 alike since the last marker (and no more than MAX_ACTIVE).
      const marker = active.lastIndexOf(null);
      let alike = 0;
      for (let k = active.length - 1; k > marker; k--)
        if (active[k]!.tag === tag && ++alike === 3) {
          active.splice(k, 1);
          break;
        }
      if (active.length - marker - 1 >= MAX_ACTIVE) active.splice(marker + 1, 1);
      formatting = { name, tag, open: true };
      active.push(formatting);
    } else if (MARKERS.has(name)) active.push(null);
    open.push({ name, formatting });
  };
  const closeFrom = (i: number) => {
    while (open.length > i) {
      const element = open.pop()!;
      out.push(`</${element.name}>`);
      if (element.formatting) element.formatting.open = false;
      if (MARKERS.has(element.name) && active.includes(null))
        active = active.slice(0, active.lastIndexOf(null));
    }
    if (droppedCount > 0) {
      dropped = new Map();
      droppedCount = 0;
    }
  };
  /** Reopens the formatting closed early, as the parser does before text and inline tags. */
  const reopen = () => {
    let k = active.length;
    while (k > 0 && active[k - 1] !== null && !active[k - 1]!.open) k--;
    for (; k < active.length && room(); k++) {
      const formatting = active[k]!;
      elements++;
      out.push(formatting.tag);
      formatting.open = true;
      open.push({ name: formatting.name, formatting });
    }
  };
  /** A `<` the parser could read as markup is written as text, so the parser sees only our tags. */
  const writeText = (from: number, to: number) => {
    if (to <= from) return;
    if (active.length > 0 && droppedCount === 0) reopen();
    out.push(html.slice(from, to).replace(/</g, '&lt;'));
    textLength += to - from;
    work += (to - from) * open.length;
  };
  /** What the HTML parser closes before opening `name` (omitted end tags). */
  const closeImplied = (name: string) => {
    if (CLOSES_P.has(name)) {
      const p = find((n) => n === 'p', P_SCOPE);
      if (p >= 0) closeFrom(p);
    }
    const top = open[open.length - 1]?.name;
    if (name === 'li' || name === 'dd' || name === 'dt') {
      const same = name === 'li' ? (n: string) => n === 'li' : (n: string) => n === 'dd' || n === 'dt';
      for (let i = open.length - 1; i >= 0; i--) {
        const n = open[i]!.name;
        if (same(n)) closeFrom(i);
        if (same(n) || (SPECIAL.has(n) && n !== 'address' && n !== 'div' && n !== 'p')) break;
      }
    } else if (HEADINGS.has(name) && top && HEADINGS.has(top)) closeFrom(open.length - 1);
    else if (name === 'a') {
      // A link in effect ends; past a block, the parser moves it rather than close the block.
      const link = activeNamed('a');
      if (link?.open) {
        const i = open.findLastIndex((element) => element.formatting === link);
        if (i >= 0 && !open.slice(i + 1).some((element) => SPECIAL.has(element.name))) closeFrom(i);
      }
      if (link) forget(link);
    } else if (name === 'option' || name === 'optgroup') {
      if (top === 'option') closeFrom(open.length - 1);
      if (name === 'optgroup' && open[open.length - 1]?.name === 'optgroup') closeFrom(open.length - 1);
    } else if (TABLE_PARTS.has(name)) {
      const same = name === 'tr' ? ROWS : CELLS.has(name) ? CELLS : SECTIONS;
      const i = find((n) => same.has(n), CELLS.has(name) ? ROW_SCOPE : TABLE_SCOPE);
      if (i >= 0) closeFrom(i);
    }
  };
  /** A dropped tag that broke the line leaves a space, so the words on each side stay apart. */
  const drop = (name: string) => {
    if (BREAKS.has(name)) out.push(' ');
  };
  const endTag = (name: string) => {
    if (droppedCount > 0 && (dropped.get(name) ?? 0) > 0) {
      dropped.set(name, dropped.get(name)! - 1);
      droppedCount--;
      return drop(name);
    }
    const formatting = FORMATTING.has(name) ? activeNamed(name) : null;
    // Formatting closed early: its end tag only ends it.
    if (formatting && !formatting.open) return forget(formatting);
    let i: number;
    if (HEADINGS.has(name)) i = find((n) => HEADINGS.has(n), SCOPE);
    else if (name === 'li') i = find((n) => n === 'li', LIST_SCOPE);
    else if (name === 'p') i = find((n) => n === 'p', P_SCOPE);
    else if (name === 'table' || TABLE_PARTS.has(name)) i = find((n) => n === name, TABLE_SCOPE);
    // Formatting ends through blocks (the parser's adoption agency; ENML never misnests).
    else if (SPECIAL.has(name) || formatting) i = find((n) => n === name, SCOPE);
    else i = find((n) => n === name, SPECIAL);
    if (i >= 0) {
      const ended = open[i]!.formatting;
      closeFrom(i);
      // What it closed inside it is reopened after it (`<b>1<i>2</b>3</i>`: 3 is in italics).
      if (ended) forget(ended);
      return;
    }
    // Closing nothing, it is ignored, but for the line the parser makes of `</p>` and `</br>`.
    if (name !== 'p' && name !== 'br') return;
    if (elements >= MAX_ELEMENTS) return drop(name);
    if (name === 'br') reopen();
    elements++;
    out.push(name === 'p' ? '<p></p>' : '<br>');
  };
  /** A start tag; returns where reading goes on. */
  const startTag = (tag: Tag): number => {
    const { name, attributes } = tag;
    const start = `<${name}${attributes}>`;
    const closing = `</${name}>`;
    if (SKIPPED.has(name)) return tag.selfClosing ? tag.next : rawTextEnd(html, tag.next, name);
    // Everything after an (obsolete) `<plaintext>` is its text, even our end tags: written as text.
    if (name === 'plaintext') {
      writeText(tag.next, html.length);
      return html.length;
    }
    // Outside a table the parser ignores the parts of one.
    if ((TABLE_PARTS.has(name) || name === 'col') && !open.some((element) => element.name === 'table'))
      return tag.next;
    if (droppedCount === 0) {
      closeImplied(name);
      if (!NO_REOPEN.has(name)) reopen();
    }
    const full = elements >= MAX_ELEMENTS;
    // XHTML (ENML) is XML: `<div/>` is an empty div, where an HTML parser would wrap all that follows
    // in it. An end tag says so to it.
    const empty = VOID.has(name) || tag.selfClosing;
    if (empty && !full) {
      elements++;
      out.push(VOID.has(name) ? start : start + closing);
      return tag.next;
    }
    const kept = !full && droppedCount === 0 && open.length < maxDepth;
    if (RAW.has(name)) {
      const end = rawTextEnd(html, tag.next, name);
      if (kept) {
        elements++;
        out.push(start, html.slice(tag.next, end), closing);
        textLength += end - tag.next;
        work += (end - tag.next) * open.length;
      } else writeText(tag.next, end);
      return end < html.length ? (readTag(html, end, styleMarks)?.next ?? html.length) : end;
    }
    if (kept) openElement(name, start);
    else if (!full && html.slice(tag.next, tag.next + closing.length).toLowerCase() === closing) {
      // Empty at the bottom (a checkbox, an anchor): no deeper than its parent's other children.
      elements++;
      out.push(start + closing);
      return tag.next + closing.length;
    } else {
      drop(name);
      if (!empty) {
        dropped.set(name, (dropped.get(name) ?? 0) + 1);
        droppedCount++;
      }
    }
    return tag.next;
  };

  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const c = html.charCodeAt(lt + 1);
    let next: number;
    if (html.startsWith('!--', lt + 1)) {
      const close = html.indexOf('-->', lt + 2);
      next = close < 0 ? html.length : close + 3;
    } else if (c === 33 || c === 63 || (c === 47 && !isLetter(html.charCodeAt(lt + 2)))) {
      // `<!doctype>`, `<?xml?>`, `<![CDATA[…]]>`, `</ 3>`: the HTML parser reads them as comments.
      const close = html.indexOf('>', lt + 1);
      next = close < 0 ? html.length : close + 1;
    } else if (isLetter(c) || c === 47) {
      const tag = readTag(html, lt, styleMarks);
      // A tag left open at the end: kept as text rather than dropped with all that follows it.
      if (!tag) break;
      writeText(text, lt);
      if (!NAME.test(tag.name) || PAGE.has(tag.name)) next = tag.next;
      else if (tag.end) {
        endTag(tag.name);
        next = tag.next;
      } else next = startTag(tag);
      i = text = next;
      continue;
    } else {
      i = lt + 1;
      continue;
    }
    writeText(text, lt);
    i = text = next;
  }
  writeText(text, html.length);
  closeFrom(0);
  return { html: out.join(''), text: textLength, work };
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

/**
 * Calls `enter` on every node below `root` in document order, and `leave` on each element entered
 * once its children are done, without recursion. `enter` says whether to go into the node; it may
 * change the node's children, not remove the node.
 */
export function traverse(
  root: Node,
  enter: (node: Node) => boolean,
  leave: (element: Element) => void,
): void {
  let node: Node | null = root.firstChild;
  while (node) {
    if (enter(node)) {
      if (node.firstChild) {
        node = node.firstChild;
        continue;
      }
      leave(node as Element);
    }
    while (!node.nextSibling) {
      node = node.parentNode;
      if (!node || node === root) return;
      leave(node as Element);
    }
    node = node.nextSibling;
  }
}

/**
 * Empties every element `maxDepth` below `root` of its elements' children (moved up into it), so
 * nothing nests deeper. `boundNesting` already keeps the written tags within MAX_DEPTH; the parser
 * may add a few of its own (`<tbody>`, reopened `<b>`s), and turndown's recursion must stay bounded.
 */
function flatten(root: Node, maxDepth: number): void {
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
function pruneBlank(root: Node): void {
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
function boundIndentation(root: Node): void {
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
function structureBlocks(root: Element): void {
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

/**
 * Drops whitespace past MAX_WHITESPACE in a row of the Markdown, counting the line breaks and
 * indentation turndown will write, and the `<br>`s that would only add to it.
 */
function boundWhitespace(root: Node, visible: ReadonlySet<string>): void {
  /** Whitespace written since the last visible character. */
  let run = 0;
  let indent = 0;
  let pre = 0;
  const widths: number[] = [];
  const breaks: Node[] = [];
  traverse(
    root,
    (node) => {
      if (node.nodeType === TEXT_NODE) {
        const text = node as Text;
        // What turndown does to text outside <pre> anyway.
        const data = pre > 0 ? text.data : text.data.replace(/[ \r\n\t]+/g, ' ');
        const line = pre > 0 ? 1 + indent : 1;
        let kept = '';
        let last = 0;
        for (const space of data.matchAll(/\s+/g)) {
          if (space.index > last) run = 0;
          let ws = space[0];
          if (run + ws.length * line > MAX_WHITESPACE) {
            ws = ws.slice(0, Math.max(0, Math.floor((MAX_WHITESPACE - run) / line)));
            run = MAX_WHITESPACE;
          } else run += ws.length * line;
          kept += data.slice(last, space.index) + ws;
          last = space.index + space[0].length;
        }
        if (last < data.length) run = 0;
        kept += data.slice(last);
        if (kept !== text.data) text.data = kept;
        return false;
      }
      if (node.nodeType !== ELEMENT_NODE) return false;
      const element = node as Element;
      const name = element.nodeName;
      if (name === 'BR') {
        if (run + 3 + indent > MAX_WHITESPACE) breaks.push(element);
        else run += 3 + indent;
        return false;
      }
      if (BLOCK.has(name)) run += 2 + indent;
      if (name === 'LI') {
        const width = element.parentNode?.nodeName === 'OL' ? 10 : 4;
        widths.push(width);
        indent += width;
        run = 3; // after the item's marker
      }
      if (name === 'PRE') pre++;
      if (name === 'HR' || visible.has(name) || (name === 'IMG' && element.hasAttribute('src'))) run = 0;
      return true;
    },
    (element) => {
      const name = element.nodeName;
      if (BLOCK.has(name)) run += 2 + indent;
      if (name === 'LI') indent -= widths.pop()!;
      if (name === 'PRE') pre--;
    },
  );
  for (const br of breaks) br.parentNode?.removeChild(br);
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
 * rewrite, the dialect makes its own blocks plain HTML, the passes above bound what turndown would
 * spend on the tree, then the dialect's turndown converts it.
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
