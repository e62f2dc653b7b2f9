import { BLOCK, STRUCK, tagSet, type StyleMarks } from './html-dom';

/*
 * The HTML parser's categories of tags that `boundNesting` follows, and its reading of a tag: a
 * linear scan, as the HTML tokenizer reads one.
 */

/** Elements that never have children (an end tag for them is not needed, `</br>` is a `<br>`). */
export const VOID = tagSet(
  'area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr',
);
/** Dropped with their text: turndown removes them anyway, and their text is not HTML. */
export const SKIPPED = tagSet('script style');
/** Text up to their end tag is not HTML (RCDATA and RAWTEXT elements). */
export const RAW = tagSet('textarea title xmp iframe noembed noframes');
/** Tags of the page around a fragment: the parser ignores them inside a body. */
export const PAGE = tagSet('html head body');
/** Where a search for an open element stops (the HTML "default scope"). */
export const SCOPE = tagSet(
  'applet caption html table td th marquee object template foreignobject desc mi mo mn ms mtext',
);
export const TABLE_SCOPE = tagSet('html table template');
/** Elements an unknown end tag cannot close past (the HTML "special" category). */
export const SPECIAL = tagSet(
  'address applet area article aside base basefont bgsound blockquote body br button caption center col ' +
    'colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 ' +
    'h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav ' +
    'noembed noframes noscript object ol p param plaintext pre script search section select source style ' +
    'summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp',
);
/** Start tags that close an open `<p>`. */
export const CLOSES_P = tagSet(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer ' +
    'form h1 h2 h3 h4 h5 h6 header hgroup hr listing main menu nav ol p plaintext pre search section ' +
    'summary ul xmp li dd dt',
);
export const HEADINGS = tagSet('h1 h2 h3 h4 h5 h6');
/** Closed by their end tag through blocks (the parser's adoption agency; ENML never misnests). */
export const FORMATTING = tagSet('a b big code em font i nobr s small strike strong tt u');
export const TABLE_PARTS = tagSet('tbody thead tfoot tr td th caption colgroup');
/** The attributes the Markdown rules read; the others (mostly `style`) only cost parsing time. */
const KEPT_ATTRIBUTES = tagSet('href src alt title start checked');
/** Tags whose text would run into the next word's if the tag were dropped. */
export const BREAKS = new Set([...[...BLOCK].map((n) => n.toLowerCase()), 'br']);

export const P_SCOPE = new Set([...SCOPE, 'button']);
export const LIST_SCOPE = new Set([...SCOPE, 'ol', 'ul']);
export const ROW_SCOPE = tagSet('tr table html template');
export const ROWS = tagSet('tr');
export const CELLS = tagSet('td th');
export const SECTIONS = tagSet('tbody thead tfoot caption colgroup');
/** Where formatting opened before stops being reopened (the "markers" of the parser's list). */
export const MARKERS = tagSet('td th caption applet marquee object template');
/** Start tags before which the parser does not reopen formatting: blocks and tables. */
export const NO_REOPEN = tagSet(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer ' +
    'header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing form li ' +
    'dd dt table caption colgroup col tbody thead tfoot tr td th hr textarea iframe noembed noframes ' +
    'param source track',
);

export const NAME = /^[a-z][a-z0-9_.:-]*$/;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
export const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

export interface Tag {
  name: string;
  end: boolean;
  selfClosing: boolean;
  attributes: string;
  /** Where the tag's `>` ends. */
  next: number;
}

/** What ends a tag's name: a space, `/` or `>`; an attribute's name also ends at `=`. */
const endsName = (c: number) => isSpace(c) || c === 47 || c === 62;
const endsAttributeName = (c: number) => endsName(c) || c === 61;
/** What ends a value without quotes: a space or `>`. */
const endsValue = (c: number) => isSpace(c) || c === 62;
const notSpace = (c: number) => !isSpace(c);

/** Where the characters from `i` on end that are not `stop`s. */
function scanTo(s: string, i: number, stop: (c: number) => boolean): number {
  while (i < s.length && !stop(s.charCodeAt(i))) i++;
  return i;
}

/**
 * The tag starting at `at` (a `<` then a letter, or `</` then a letter), or null when it never
 * ends. A linear scan, as the HTML tokenizer reads one: a quote opens a value only after `=`.
 */
export function readTag(s: string, at: number, styleMarks: StyleMarks): Tag | null {
  const end = s.charCodeAt(at + 1) === 47;
  const nameStart = at + (end ? 2 : 1);
  let i = scanTo(s, nameStart, endsName);
  const name = s.slice(nameStart, i).toLowerCase();
  let attributes = '';
  for (;;) {
    const gap = i;
    while (i < s.length && (isSpace(s.charCodeAt(i)) || s[i] === '/')) i++;
    if (i >= s.length) return null;
    if (s[i] === '>') return { name, end, selfClosing: i > gap && s[i - 1] === '/', attributes, next: i + 1 };
    const attribute = readAttribute(s, i);
    if (!attribute) return null;
    attributes += keptAttribute(name, attribute, styleMarks);
    i = attribute.next;
  }
}

interface Attribute {
  name: string;
  /** Null when it has none (`<input checked>`). */
  value: string | null;
  /** Where reading goes on. */
  next: number;
}

/** The attribute starting at `at`, or null when its quoted value never ends. */
function readAttribute(s: string, at: number): Attribute | null {
  const nameEnd = scanTo(s, at + 1, endsAttributeName);
  const name = s.slice(at, nameEnd).toLowerCase();
  let j = scanTo(s, nameEnd, notSpace);
  if (s[j] !== '=') return { name, value: null, next: nameEnd };
  j = scanTo(s, j + 1, notSpace);
  const quote = s[j];
  if (quote === '"' || quote === "'") {
    const close = s.indexOf(quote, j + 1);
    return close < 0 ? null : { name, value: s.slice(j + 1, close), next: close + 1 };
  }
  const valueEnd = scanTo(s, j, endsValue);
  return { name, value: s.slice(j, valueEnd), next: valueEnd };
}

/** What the tag `<name>` keeps of `attribute`, as it is written back ('' for nothing). */
function keptAttribute(name: string, { name: attribute, value }: Attribute, styleMarks: StyleMarks): string {
  // A list's `start` only numbers items: a huge one would widen every item's indentation.
  if (attribute === 'start' && !/^\s*-?\d{1,6}\s*$/.test(value ?? '')) return '';
  if (KEPT_ATTRIBUTES.has(attribute) || (attribute === 'class' && name === 'code'))
    return value === null ? ` ${attribute}` : ` ${attribute}="${value.replace(/"/g, '&quot;')}"`;
  if (attribute === 'style' && value) return ownStyleMarks(value) + styleMarks(value);
  return '';
}

/** The data attributes standing for what a `style` says that any HTML's Markdown keeps. */
function ownStyleMarks(style: string): string {
  // Only `text-decoration` says `line-through`; a longer pattern could backtrack on hostile styles.
  return /line-through/i.test(style) ? ` ${STRUCK}` : '';
}

/** Where the raw text of a `<name>` element ends: its end tag, or the end of the input. */
export function rawTextEnd(s: string, from: number, name: string): number {
  const close = new RegExp(`</${name}[\\s/>]`, 'gi');
  close.lastIndex = from;
  return close.exec(s)?.index ?? s.length;
}
