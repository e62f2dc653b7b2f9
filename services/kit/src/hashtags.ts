import { MAX_TAG_LENGTH, MAX_TAGS } from '@haven/contracts/thoughts';
import { proseLines } from './prose';
import { ahead, blankSpans } from './prose-scan';

/**
 * Tags as Obsidian reads them: `#tag` outside code, URLs, link targets and HTML; letters, digits,
 * `_`, `-` and `/` (nested `a/b`); case-insensitive, the first spelling kept. The import readers and
 * the thoughts service's capture read hashtags with these same rules. Every scan is linear in the text.
 */

// Preceded by the start of the line or a space (so `a#b`, `'#foo'` and `url#frag` are not tags).
const HASHTAG = /(?<=^|\s)#([\p{L}\p{M}\p{N}_\-/]+)/gu;
const HEX = /^(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * A hex colour rather than a tag: `#a1b2c3`, `#000`, `#fff` (one repeated digit), or any hex after
 * `:`/`=` (CSS `color: #fade`). Words like `#cafe` or `#decade` in prose stay tags.
 */
function isColour(tag: string, line: string, at: number): boolean {
  if (!HEX.test(tag)) return false;
  return /\d/.test(tag) || /^(.)\1*$/.test(tag) || afterAssignment(line, at);
}

/**
 * Whether `:` or `=` comes before `at`, spaces apart (`/[:=]\s*$/` on the line up to `at`). Only
 * the spaces just before are read: testing the whole prefix for every tag is quadratic on a long
 * line of tags, and the spaces before one tag end at the one before it.
 */
function afterAssignment(line: string, at: number): boolean {
  let i = at;
  while (i > 0 && /\s/.test(line[i - 1]!)) i--;
  return i > 0 && (line[i - 1] === ':' || line[i - 1] === '=');
}

/** `tag` without trailing `/`s; `/\/+$/` is quadratic on a long run of `/` inside a tag. */
function trimSlashes(tag: string): string {
  let end = tag.length;
  while (end > 0 && tag[end - 1] === '/') end--;
  return tag.slice(0, end);
}

/**
 * Logseq's multi-word tags, `#[[a b]]` at the start or after a space, as spans [start, end, …]: what
 * `/(?<=^|\s)#\[\[([^\]\n]{1,200})\]\]/gu` matches. A scan, not that regex, which reads 200
 * characters at every `#[[` (a line of ` #[[` took a quarter of a second a megabyte).
 */
function bracketedTags(line: string): number[] {
  const spans: number[] = [];
  // The regex's `\n` is never met: proseLines splits the body at them.
  const nextBracket = ahead((from) => line.indexOf(']', from));
  let pairs: Int32Array | undefined;
  for (let i = line.indexOf('#[['); i !== -1;) {
    if (i === 0 || /\s/.test(line[i - 1]!)) {
      const from = i + 3;
      const end = nextBracket(from);
      if (end === Infinity) break;
      if (line[end] === ']' && line[end + 1] === ']' && end > from) {
        // {1,200} counts code points (the `u` flag): a surrogate pair is one.
        let length = end - from;
        if (length > 200 && length <= 400) {
          pairs ??= pairsBefore(line);
          length -= pairs[end]! - pairs[from]!;
        }
        if (length <= 200) {
          spans.push(i, end + 2);
          i = line.indexOf('#[[', end + 2);
          continue;
        }
      }
    }
    i = line.indexOf('#[[', i + 1);
  }
  return spans;
}

/** pairs[j]: how many surrogate pairs start before j. */
function pairsBefore(text: string): Int32Array {
  const pairs = new Int32Array(text.length + 1);
  for (let j = 0; j < text.length; j++) {
    const c = text.charCodeAt(j);
    const d = text.charCodeAt(j + 1);
    pairs[j + 1] = pairs[j]! + (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 1 : 0);
  }
  return pairs;
}

/** Whether a candidate may be a tag: it has a letter (`#1`, `#2024` are not), no template syntax. */
function validTag(tag: string): boolean {
  return /\p{L}/u.test(tag) && !/[{}<>[\]%\n]/.test(tag) && !/^\p{N}+$/u.test(tag);
}

/** The `#tags` of a Markdown or text body, in order of appearance, not deduplicated. */
export function textTags(body: string, options: { indentedCode: boolean }): string[] {
  const tags: string[] = [];
  for (const line of proseLines(body, options)) {
    const bracketed = bracketedTags(line);
    for (let k = 0; k < bracketed.length; k += 2) {
      tags.push(line.slice(bracketed[k]! + 3, bracketed[k + 1]! - 2).trim());
    }
    const bare = blankSpans(line, bracketed);
    for (const m of bare.matchAll(HASHTAG)) {
      const tag = trimSlashes(m[1]!);
      if (tag && !isColour(tag, bare, m.index) && validTag(tag)) tags.push(tag);
    }
  }
  return tags;
}

/**
 * Tags written as metadata: a YAML list, or a string separated by commas (or spaces when it has no
 * comma), each without its leading `#` or `[[ ]]`.
 */
export function metaTags(value: unknown): string[] {
  const list = Array.isArray(value)
    ? value.flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? [String(v)] : []))
    : typeof value === 'string'
      ? value.split(value.includes(',') ? ',' : /\s+/)
      : [];
  return list
    .map((t) =>
      t
        .trim()
        .replace(/^#/, '')
        .replace(/^\[\[(.*)\]\]$/, '$1')
        .trim(),
    )
    .filter((t) => t.length > 0 && validTag(t));
}

/** At most 20 tags of at most 40 characters (longer ones dropped), first spelling of each kept. */
export function finalTags(...lists: string[][]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const tag of lists.flat()) {
    const key = tag.toLowerCase();
    if (tag.length > MAX_TAG_LENGTH || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
    if (tags.length === MAX_TAGS) break;
  }
  return tags;
}

/**
 * The tags of a thought as captured: its `#tags` (prose only: not in code or URLs, at least one
 * letter) after the `tags` it was sent with, first spelling kept, within the contract's limits.
 * Typed text is not Markdown written by another app, so indented lines are prose, not code.
 */
export function captureTags(content: string, sent: string[] = []): string[] {
  return finalTags(sent, textTags(content, { indentedCode: false }));
}
