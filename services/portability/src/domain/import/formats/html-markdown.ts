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

/** What an encrypted block (`<en-crypt>`) becomes: its text cannot be read without its passphrase. */
export const ENCRYPTED = '[encrypted content, not imported]';

/** An Evernote 10 task (written outside the note's body), as an item of the note's task list. */
export interface EnmlTask {
  title: string;
  done: boolean;
  /** When it is due, as text. */
  due?: string;
  /** The `--en-id` of the task group (the placeholder block in the body) it belongs to. */
  group?: string;
}

/**
 * What Evernote says in `style` attributes that the Markdown keeps, as data attributes (`style`
 * itself is dropped): code blocks, Evernote 10 checklists and their items' state, and the
 * placeholder block of a task group, with its id.
 */
const CODE_BLOCK = 'data-en-codeblock';
const TODO = 'data-en-todo';
const CHECKED = 'data-en-checked';
const TASK_GROUP = 'data-en-task-group';
/** Text in Evernote's monospace font: its inline code. */
const MONOSPACE = 'data-en-monospace';
/** How many checkboxes are moved out of formatting (see evernoteBlocks); real notes have a few. */
const MAX_MOVED = 1_000;
/** Marks a table that holds tables (see evernoteBlocks). */
const LAYOUT_TABLE = 'data-layout-table';
/** Marks the lists and quotes `boundIndentation` writes as plain blocks. */
const FLAT = 'data-flat';

const turndown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  // A checkbox is an empty element, which turndown hands to this rather than to any rule.
  blankReplacement: (_content, node) => {
    if (node.nodeName === 'EN-TODO')
      return (node as HTMLElement).getAttribute('checked') === 'true' ? '[x] ' : '[ ] ';
    if (node.nodeName === 'EN-CRYPT') return `\n\n${ENCRYPTED}\n\n`;
    return (node as { isBlock?: boolean }).isBlock ? '\n\n' : '';
  },
});
// Attachments are not imported.
turndown.remove((node) => ['EN-MEDIA', 'SCRIPT', 'STYLE'].includes(node.nodeName));
// Encrypted text cannot be read, but the note says that it had some.
turndown.addRule('encrypted', {
  filter: (node) => node.nodeName === 'EN-CRYPT',
  replacement: () => `\n\n${ENCRYPTED}\n\n`,
});

/** `text` without the line breaks at its start and end (a scan: `/\n+$/` is quadratic on a run). */
function trimNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === '\n') start++;
  while (end > start && text[end - 1] === '\n') end--;
  return text.slice(start, end);
}

// An item of an Evernote 10 checklist (`--en-checked`), or a task: a Markdown task-list item.
turndown.addRule('checklistItem', {
  filter: (node) =>
    node.nodeName === 'LI' &&
    !node.hasAttribute(FLAT) &&
    (node.hasAttribute(CHECKED) || node.parentElement?.hasAttribute(TODO) === true),
  replacement: (content, node) => {
    const box = (node as HTMLElement).getAttribute(CHECKED) === 'true' ? '[x]' : '[ ]';
    // One item a line: the blank lines of its blocks would make the list loose.
    const text = trimNewlines(content)
      .split('\n')
      .filter((line) => line.trim())
      .join('\n    ');
    return `- ${box} ${text}${node.nextSibling ? '\n' : ''}`;
  },
});

// Text in Evernote's code font is inline code, as `<code>` is (so `#include` in it is no tag).
turndown.addRule('monospace', {
  filter: (node) => node.nodeName === 'SPAN' && node.hasAttribute(MONOSPACE),
  replacement: (_content, node) => {
    const code = (node.textContent ?? '').replace(/\n/g, ' ');
    if (!code.trim()) return code;
    let longest = 0;
    let run = 0;
    for (const c of code) {
      run = c === '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    const fence = '`'.repeat(longest + 1);
    const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
    return `${fence}${pad}${code}${pad}${fence}`;
  },
});

/** The table `node` (a row or a cell) is part of, if any (flatten may leave parts out of one). */
function tableOf(node: Node): Element | null {
  let parent = node.parentNode;
  for (let up = 0; parent && up < 3; up++, parent = parent.parentNode)
    if (parent.nodeName === 'TABLE') return parent as Element;
  return null;
}
/** A part of a data table, not of one laying out others (whose cells are written as blocks). */
const inDataTable = (node: Node) => !tableOf(node)?.hasAttribute(LAYOUT_TABLE);

/**
 * Data tables as GFM tables: a line per row, the first row as the header, each cell's text on one
 * line (its line breaks as `<br>`, its `|` escaped). A table holding tables lays them out (web
 * clips): its cells are written one after the other, the tables in them as tables.
 */
turndown.addRule('tableCell', {
  filter: (node) => (node.nodeName === 'TD' || node.nodeName === 'TH') && inDataTable(node),
  replacement: (content) => {
    const lines = content
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0);
    return `| ${lines.join('<br>').replace(/\|/g, '\\|')} `;
  },
});
turndown.addRule('tableRow', {
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
turndown.addRule('table', {
  filter: (node) => node.nodeName === 'TABLE' && !node.hasAttribute(LAYOUT_TABLE),
  replacement: (content) => `\n\n${trimNewlines(content)}\n\n`,
});
turndown.addRule('tableCaption', {
  filter: 'caption',
  replacement: (content) => `\n\n${content}\n\n`,
});

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

turndown.addRule('flat', {
  filter: (node) => node.hasAttribute(FLAT),
  replacement: (content) => `\n\n${content}\n\n`,
});

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
const BLOCK = set(
  'ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE ' +
    'FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES ' +
    'NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL',
);
/** Tags whose text would run into the next word's if the tag were dropped. */
const BREAKS = new Set([...[...BLOCK].map((n) => n.toLowerCase()), 'br']);
/** turndown's void and "meaningful when blank" elements: an element holding none is blank. */
const NOT_BLANK = set(
  'AREA BASE BR COL COMMAND EMBED HR IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR ' +
    'A TABLE THEAD TBODY TFOOT TH TD IFRAME SCRIPT AUDIO VIDEO EN-CRYPT',
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
function readTag(s: string, at: number): Tag | null {
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
    else if (attribute === 'style' && value?.includes('-en-')) attributes += evernoteMarks(value);
  }
}

/** The data attributes standing for what a `style` says of Evernote's own blocks (see CODE_BLOCK). */
function evernoteMarks(style: string): string {
  let marks = '';
  if (/-en-codeblock\s*:\s*true/i.test(style)) {
    // Its language as Evernote names it (Prism's names), when a fence can carry it.
    const language = /--en-(?:codeblockLanguage|syntaxLanguage)\s*:\s*([^;"&]{1,40})/i
      .exec(style)?.[1]
      ?.trim();
    const named = language && /^[\w+#-]+$/.test(language) && language !== 'plaintext';
    marks += named ? ` ${CODE_BLOCK}="${language}"` : ` ${CODE_BLOCK}`;
  }
  if (/--en-fontfamily\s*:\s*monospace/i.test(style)) marks += ` ${MONOSPACE}`;
  if (/--en-todo\s*:\s*true/i.test(style)) marks += ` ${TODO}`;
  const checked = /--en-checked\s*:\s*(true|false)/i.exec(style);
  if (checked) marks += ` ${CHECKED}="${checked[1]!.toLowerCase()}"`;
  if (/--en-task-group\s*:\s*true/i.test(style))
    marks += ` ${TASK_GROUP}="${/--en-id\s*:\s*([\w-]{1,100})/i.exec(style)?.[1] ?? ''}"`;
  return marks;
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
 * (plus empty elements like `<en-todo></en-todo>` at the bottom) and has at most `MAX_ELEMENTS`
 * elements: every tag re-written by us and closed explicitly, in order, so the parser's tree is the
 * one tracked here, built in linear time. Tags past those bounds are dropped (their text kept); so
 * are comments, doctypes, scripts, styles, end tags that close nothing, and unused attributes.
 * What the parser does to sloppy HTML is done here: omitted end tags (`<p>`, `<li>`, `<td>`…) are
 * closed where it would close them, so such HTML does not grow deep, and formatting closed early
 * (`<p><b>1</p>2`) is reopened where it would reopen it.
 */
function boundNesting(html: string, maxDepth: number): { html: string; text: number; work: number } {
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
    // ENML is XML: `<div/>` is an empty div, where an HTML parser would wrap all that follows in it
    // (what the en-todo fix-up in enmlToMarkdown does for checkboxes). An end tag says so to it.
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
      return end < html.length ? (readTag(html, end)?.next ?? html.length) : end;
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
      const tag = readTag(html, lt);
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

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * Calls `enter` on every node below `root` in document order, and `leave` on each element entered
 * once its children are done, without recursion. `enter` says whether to go into the node; it may
 * change the node's children, not remove the node.
 */
function traverse(root: Node, enter: (node: Node) => boolean, leave: (element: Element) => void): void {
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
 * Evernote's own blocks, made into what turndown writes as they mean: each task group's placeholder
 * ("Content not supported…", in the user's language) replaced by its tasks, the tasks of no group
 * in the body at the end; code blocks (`<div>`s of lines) as `<pre><code>`, so their text is code,
 * never prose (no `#include` read as a tag); and a list written right inside a list (as Evernote
 * nests them) moved into the item before it, so it is nested in Markdown too. Tables holding
 * tables are marked as laying them out.
 */
function evernoteBlocks(root: Element, tasks: readonly EnmlTask[]): void {
  const document = root.ownerDocument;
  const groups = new Map<string, EnmlTask[]>();
  for (const task of tasks) {
    const group = groups.get(task.group ?? '');
    if (group) group.push(task);
    else groups.set(task.group ?? '', [task]);
  }
  const nested: Element[] = [];
  const todos: Element[] = [];
  /** The tables being walked, outermost first, and whether each holds a table. */
  const tables: boolean[] = [];
  traverse(
    root,
    (node) => {
      if (node.nodeType !== ELEMENT_NODE) return false;
      const element = node as Element;
      const group = element.getAttribute(TASK_GROUP);
      if (group !== null) {
        element.textContent = '';
        const list = group ? groups.get(group) : undefined;
        if (list) element.appendChild(taskList(document, list));
        if (group) groups.delete(group);
        return false;
      }
      if (element.hasAttribute(CODE_BLOCK)) {
        const language = element.getAttribute(CODE_BLOCK);
        const text = codeText(element);
        element.textContent = '';
        const code = element
          .appendChild(document.createElement('pre'))
          .appendChild(document.createElement('code'));
        code.textContent = text;
        if (language) code.className = `language-${language}`;
        return false;
      }
      if (element.nodeName === 'EN-TODO') todos.push(element);
      // Entered from here on, so `leave` pops it.
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
  // A checkbox first in formatting (`<b><en-todo/></b>text`) is moved out of it: turndown writes
  // formatting without text as nothing, the checkbox with it. Each is moved once, before the
  // outermost such element, and at most MAX_MOVED are: domino splices an array of children a move.
  let moved = 0;
  for (const todo of todos) {
    if (moved === MAX_MOVED) break;
    let outermost: Node | null = null;
    for (let node: Node = todo; ;) {
      const parent = node.parentNode;
      if (!parent || parent === root || BLOCK.has(parent.nodeName) || parent.firstChild !== node) break;
      outermost = node = parent;
    }
    if (outermost?.parentNode) {
      outermost.parentNode.insertBefore(todo, outermost);
      moved++;
    }
  }
  // Outermost first: each list is moved once, with what it holds.
  for (const list of nested) {
    const item = list.previousElementSibling;
    if (item?.nodeName === 'LI') item.appendChild(list);
  }
  const rest = [...groups.values()].flat();
  if (rest.length > 0) root.appendChild(taskList(document, rest));
}

/** Tasks as a checklist, each with its state and when it is due. */
function taskList(document: Document, tasks: readonly EnmlTask[]): Element {
  const list = document.createElement('ul');
  list.setAttribute(TODO, '');
  for (const task of tasks) {
    const item = list.appendChild(document.createElement('li'));
    item.setAttribute(CHECKED, String(task.done));
    item.textContent = task.due ? `${task.title} (due ${task.due})` : task.title;
  }
  return list;
}

/**
 * The text of a code block, a line for each of its blocks and `<br>`s, its non-breaking spaces
 * (Evernote's indentation) as spaces.
 */
function codeText(element: Element): string {
  const parts: string[] = [];
  /** Whether what was written last ends a line (or nothing was written). */
  let lineEnded = true;
  const endLine = () => {
    if (!lineEnded) parts.push('\n');
    lineEnded = true;
  };
  traverse(
    element,
    (node) => {
      if (node.nodeType === TEXT_NODE) {
        const data = (node as Text).data;
        if (data) {
          parts.push(data);
          lineEnded = data.endsWith('\n');
        }
        return false;
      }
      if (node.nodeType !== ELEMENT_NODE) return false;
      if (node.nodeName === 'BR') {
        parts.push('\n');
        lineEnded = true;
        return false;
      }
      if (BLOCK.has(node.nodeName)) endLine();
      return true;
    },
    (block) => {
      if (BLOCK.has(block.nodeName)) endLine();
    },
  );
  return trimNewlines(parts.join('').replace(/\u00a0/g, ' '));
}

/**
 * Drops whitespace past MAX_WHITESPACE in a row of the Markdown, counting the line breaks and
 * indentation turndown will write, and the `<br>`s that would only add to it.
 */
function boundWhitespace(root: Node): void {
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
      if (name === 'HR' || name === 'EN-TODO' || (name === 'IMG' && element.hasAttribute('src'))) run = 0;
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
 * ENML (Evernote's XHTML) as Markdown, in time linear in its size however it nests: domino parses
 * `boundNesting`'s rewrite, the passes above bound what turndown would spend on it, then turndown
 * converts it.
 */
export function enmlToMarkdown(enml: string, tasks: readonly EnmlTask[] = []): string {
  // `[^<>]` rather than `[^>]` (no `<` is in a tag of XML): a match tried at each `<en-todo` of
  // thousands without a `>` would otherwise read to the end each time.
  const html = enml
    .replace(/<\?xml[^<>]*\?>/g, '')
    .replace(/<!DOCTYPE[^<>]*>/gi, '')
    // ENML is XML: an HTML parser would read `<en-todo/>` as an opening tag wrapping what follows.
    .replace(/<(en-todo|en-media|en-crypt)\b([^<>]*?)\/>/gi, '<$1$2></$1>');
  let bounded = boundNesting(html, MAX_DEPTH);
  let depth = MAX_DEPTH;
  if (bounded.work > MAX_TEXT_WORK) {
    depth = Math.max(MIN_DEPTH, Math.floor(MAX_TEXT_WORK / bounded.text));
    bounded = boundNesting(html, depth);
  }
  // Wrapped as turndown wraps a string, so nothing is moved into <head>.
  const document = (domino as { createDocument(html: string): Document }).createDocument(
    `<x-turndown id="turndown-root">${bounded.html}</x-turndown>`,
  );
  const root = document.getElementById('turndown-root');
  if (!root) return '';
  flatten(root, depth);
  evernoteBlocks(root, tasks);
  pruneBlank(root);
  boundIndentation(root);
  boundWhitespace(root);
  return turndown.turndown(root);
}

/**
 * Any HTML note as Markdown (Joplin's HTML notes), by the same bounded conversion: ENML is XHTML,
 * and what it adds (`en-todo`, `en-media`, self-closed tags) reads the same in any HTML.
 */
export const htmlToMarkdown = (html: string): string => enmlToMarkdown(html);
