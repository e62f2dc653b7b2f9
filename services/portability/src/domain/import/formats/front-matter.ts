import { parseDocument, visit } from 'yaml';

/**
 * The YAML parser recurses once per level of nesting and overflows the stack at a few hundred
 * levels; a caught overflow can then abort the whole process at the next regex it compiles. Front
 * matter deeper than this, or larger, is never given to it: it is read a line at a time instead.
 * Real front matter is a few levels deep and a few hundred bytes.
 */
export const FRONT_MATTER_LIMITS = { depth: 64, bytes: 64 * 1024 } as const;

/**
 * An upper bound on how deep YAML text nests, in one linear pass: per line, its indentation plus
 * its compact `- ` and `? ` indicators, plus the flow brackets open at that point (quotes are not
 * told apart, so a bracket inside a string counts too: the bound only errs high).
 */
export function yamlNesting(yaml: string): number {
  let deepest = 0;
  let flow = 0;
  let lineStart = true;
  let block = 0;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml[i];
    if (c === '\n') {
      lineStart = true;
      block = 0;
      continue;
    }
    if (lineStart) {
      if (c === ' ' || c === '\t') {
        block++;
        continue;
      }
      if ((c === '-' || c === '?') && (yaml[i + 1] === ' ' || yaml[i + 1] === '\t')) {
        block++;
        i++;
        continue;
      }
      lineStart = false;
    }
    if (c === '[' || c === '{') flow++;
    else if ((c === ']' || c === '}') && flow > 0) flow--;
    deepest = Math.max(deepest, block + flow);
  }
  return Math.max(deepest, block + flow);
}

/** The note's text as readers want it: no byte-order mark, `\n` line ends. */
export const normaliseText = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

/** What could not be read of a note's metadata, and its line in the file: the note imports all the same. */
export interface MetaProblem {
  reason: string;
  line: number;
}

/** A note's front matter and the text after it. */
export interface FrontMatter {
  meta: Record<string, unknown>;
  body: string;
  /** Front matter read only in part: the whole of it, to be kept visible in the note. */
  kept?: string;
  problem?: MetaProblem;
}

/**
 * Splits YAML front matter (`---` … `---` or `...` on the first line) from a note. It is front
 * matter only when closed and when its first line is a `key:` line: a `---` never closed, or
 * followed by prose (`__Advertisement :)__`), is a horizontal rule and the note is all text.
 * Front matter that is not valid YAML is read line by line (`key: value`, `- item` lists, tabs
 * tolerated), and what was not understood is kept visible. So is front matter nested past
 * FRONT_MATTER_LIMITS (a hostile file: real front matter is a few levels deep), which YAML never sees.
 */
export function splitFrontMatter(text: string): FrontMatter {
  if (!/^---[ \t]*\n/.test(text)) return { meta: {}, body: text };
  const close = /\n(?:---|\.\.\.)[ \t]*(?:\n|$)/g;
  close.lastIndex = text.indexOf('\n');
  const end = close.exec(text);
  if (!end) return { meta: {}, body: text };
  const yaml = text.slice(text.indexOf('\n') + 1, end.index + 1);
  const body = text.slice(end.index + end[0].length);
  const first = /^[ \t]*\S[^\n]*/m.exec(yaml)?.[0];
  if (first === undefined) return { meta: {}, body };
  if (!keyLine(first)) return { meta: {}, body: text };
  // Never given to the YAML parser (see FRONT_MATTER_LIMITS): read a line at a time, kept visible.
  if (yamlNesting(yaml) > FRONT_MATTER_LIMITS.depth)
    return leniently(yaml, body, `nested more than ${FRONT_MATTER_LIMITS.depth} levels deep`, 2);
  if (yaml.length > FRONT_MATTER_LIMITS.bytes)
    return leniently(yaml, body, `larger than ${FRONT_MATTER_LIMITS.bytes / 1024} KB`, 2);
  const parsed = parseYaml(yaml);
  if ('error' in parsed) return leniently(yaml, body, `not valid YAML (${parsed.error})`, parsed.line);
  if (parsed.value === null || parsed.value === undefined) return { meta: {}, body };
  if (typeof parsed.value !== 'object' || Array.isArray(parsed.value))
    return leniently(yaml, body, 'not key: value lines', 2);
  return { meta: parsed.value as Record<string, unknown>, body };
}

/**
 * YAML read with the core schema (YAML 1.2: `2021-02-26` stays a string, so no time zone touches
 * it), numbers and booleans given back as written (a title `001` is `001`, not 1).
 */
function parseYaml(yaml: string): { value: unknown } | { error: string; line: number } {
  const doc = parseDocument(yaml, { uniqueKeys: false, logLevel: 'error' });
  const err = doc.errors[0];
  if (err) {
    // The line is given on its own; YAML's "at line 2, column 1:" would name it again, counted differently.
    const message = (err.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    return { error: message, line: (err.linePos?.[0]?.line ?? 1) + 1 };
  }
  // Depth is bounded by FRONT_MATTER_LIMITS, so this visit's recursion is too.
  visit(doc, {
    Scalar(_, node) {
      if ((typeof node.value === 'number' || typeof node.value === 'boolean') && node.source !== undefined)
        node.value = node.source;
    },
  });
  try {
    return { value: doc.toJS({ maxAliasCount: 100 }) };
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0] ?? 'unreadable', line: 2 };
  }
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';
/** Characters a plain YAML key cannot start with (list, flow, comment, alias, block indicators). */
const KEY_START = new Set('-?:,[]{}#&*!|>%@`');

/**
 * A `key: value` line as its key and value text, or null: a plain or quoted key, then `:` and a
 * blank or the end of the line. Scanned, not matched, so that no line backtracks.
 */
export function keyLine(line: string): { key: string; value: string; indent: number } | null {
  let i = 0;
  while (isBlank(line[i])) i++;
  const indent = i;
  const quote = line[i];
  let key: string;
  let colon: number;
  if (quote === '"' || quote === "'") {
    const shut = line.indexOf(quote, i + 1);
    if (shut < 0) return null;
    key = line.slice(i + 1, shut);
    colon = shut + 1;
    while (isBlank(line[colon])) colon++;
    if (line[colon] !== ':' || !(colon + 1 === line.length || isBlank(line[colon + 1]))) return null;
  } else {
    if (quote === undefined || KEY_START.has(quote)) return null;
    colon = line.indexOf(':', i);
    while (colon >= 0 && !(colon + 1 === line.length || isBlank(line[colon + 1])))
      colon = line.indexOf(':', colon + 1);
    if (colon < 0) return null;
    key = line.slice(i, colon).trimEnd();
    if (key.includes(' #')) return null;
  }
  return key ? { key, value: line.slice(colon + 1).trim(), indent } : null;
}

/** A quoted scalar's text, or the plain text as it is. */
function unquote(value: string): string {
  const q = value[0];
  if (value.length < 2 || (q !== '"' && q !== "'") || value[value.length - 1] !== q) return value;
  const inner = value.slice(1, -1);
  if (q === "'") return inner.replace(/''/g, "'");
  try {
    return JSON.parse(value) as string;
  } catch {
    return inner;
  }
}

/** Template placeholders (Obsidian's `{{date}}`, Templater's `<% … %>`): no value yet. */
const PLACEHOLDER = /\{\{|<%/;

/** A one-line value read leniently: a string, a `[a, b]` list, null when empty; undefined when not understood. */
function lenientValue(value: string): string | string[] | null | undefined {
  if (!value) return null;
  if (PLACEHOLDER.test(value) || value[0] === '{' || value[0] === '&' || value[0] === '*') return undefined;
  if (value[0] === '[') {
    const inner = value.slice(1, value.endsWith(']') ? -1 : undefined);
    if (/[[\]{}]/.test(inner)) return undefined;
    return inner
      .split(',')
      .map((v) => unquote(v.trim()))
      .filter(Boolean);
  }
  return unquote(value);
}

/**
 * Front matter that YAML refused, read a line at a time: top-level `key: value` lines, `- item`
 * lines under a key (at any indentation, tabs too), `|` and `>` blocks, and plain values running
 * on over indented lines. Linear in its length, no recursion. Lines it does not understand are
 * counted: then the whole front matter is kept visible (`kept`), the note losing nothing.
 */
function leniently(yaml: string, body: string, why: string, line: number): FrontMatter {
  const lines = yaml.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const read: LenientRead = { meta: new Map(), key: null, block: null, runsOn: false };
  let unread = 0;
  let firstUnread = 0;
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n]!;
    const text = raw.trim();
    if (continuesBlock(read, raw, text)) continue;
    read.block = null;
    if (!text || text[0] === '#') continue;
    const understood =
      text === '-' || text.startsWith('- ') || text.startsWith('-\t')
        ? readListItem(read, text)
        : readKeyLine(read, raw, text);
    if (!understood) {
      if (!unread++) firstUnread = n;
      read.key = null;
      read.runsOn = false;
    }
  }
  return lenientResult(yaml, body, Object.fromEntries(read.meta), { why, line, unread, firstUnread });
}

/** What `leniently` has read so far, and of the line before. */
interface LenientRead {
  meta: Map<string, unknown>;
  /** The key of the last top-level `key: value` line understood. */
  key: string | null;
  /** Inside a `|` or `>` block: lines are joined with this. */
  block: string | null;
  /** The last value was plain text, which indented lines carry on. */
  runsOn: boolean;
}

/** A line of a `|` or `>` block (indented or blank) added to its value: whether it was one. */
function continuesBlock(read: LenientRead, raw: string, text: string): boolean {
  if (read.block === null || read.key === null || (text && !isBlank(raw[0]))) return false;
  const before = read.meta.get(read.key) as string;
  read.meta.set(read.key, before ? `${before}${read.block}${text}` : text);
  return true;
}

/** A `- item` line, added to the list of the key above it: whether it was understood. */
function readListItem(read: LenientRead, text: string): boolean {
  const before = read.key === null ? undefined : read.meta.get(read.key);
  const item = lenientValue(text.slice(1).trim());
  if (read.key === null || !(before === null || Array.isArray(before)) || typeof item !== 'string')
    return false;
  read.meta.set(read.key, [...((before as string[] | null) ?? []), item]);
  read.runsOn = false;
  return true;
}

/** A top-level `key: value` line, or an indented line running a plain value on: whether it was understood. */
function readKeyLine(read: LenientRead, raw: string, text: string): boolean {
  const pair = keyLine(raw);
  if (pair?.indent === 0) {
    read.key = pair.key;
    const isBlock = /^[|>][-+0-9]*$/.test(pair.value);
    const value = isBlock ? '' : lenientValue(pair.value);
    if (isBlock) read.block = pair.value[0] === '|' ? '\n' : ' ';
    if (value === undefined) return false;
    read.meta.set(read.key, value);
    read.runsOn = typeof value === 'string' && !/^["']/.test(pair.value);
    return true;
  }
  if (pair || !read.runsOn || read.key === null || !isBlank(raw[0])) return false;
  read.meta.set(read.key, `${read.meta.get(read.key) as string} ${text}`);
  return true;
}

/** The front matter read leniently, kept visible when some of its lines were not understood. */
function lenientResult(
  yaml: string,
  body: string,
  meta: Record<string, unknown>,
  { why, line, unread, firstUnread }: { why: string; line: number; unread: number; firstUnread: number },
): FrontMatter {
  const reason = `The front matter is ${why}: read line by line`;
  const result = { meta, body };
  if (!unread) return { ...result, problem: { reason, line } };
  const lineCount = unread === 1 ? '1 line' : `${unread} lines`;
  return {
    ...result,
    kept: yaml,
    problem: {
      reason: `${reason}; ${lineCount} not understood (from line ${firstUnread + 2}), so it is kept in the note as text`,
      line,
    },
  };
}

/** The value of a key, matched case-insensitively (`Title`, `TAGS`). */
export function metaValue(meta: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys)
    for (const [k, v] of Object.entries(meta)) if (k.toLowerCase() === key && v !== null) return v;
  return undefined;
}
