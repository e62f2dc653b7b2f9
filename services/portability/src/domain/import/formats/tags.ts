import { MAX_TAG_LENGTH, MAX_TAGS } from '@haven/contracts/thoughts';
import { proseLines } from './prose';

/**
 * Tags as Obsidian reads them: `#tag` outside code, URLs, link targets and HTML; letters, digits,
 * `_`, `-` and `/` (nested `a/b`); case-insensitive, the first spelling kept.
 */

// Preceded by the start of the line or a space (so `a#b`, `'#foo'` and `url#frag` are not tags).
const HASHTAG = /(?<=^|\s)#([\p{L}\p{M}\p{N}_\-/]+)/gu;
// Logseq's multi-word tag.
const BRACKETED = /(?<=^|\s)#\[\[([^\]\n]{1,200})\]\]/gu;
const HEX = /^(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * A hex colour rather than a tag: `#a1b2c3`, `#000`, `#fff` (one repeated digit), or any hex after
 * `:`/`=` (CSS `color: #fade`). Words like `#cafe` or `#decade` in prose stay tags.
 */
function isColour(tag: string, before: string): boolean {
  if (!HEX.test(tag)) return false;
  return /\d/.test(tag) || /^(.)\1*$/.test(tag) || /[:=]\s*$/.test(before);
}

/** Whether a candidate may be a tag: it has a letter (`#1`, `#2024` are not), no template syntax. */
function validTag(tag: string): boolean {
  return /\p{L}/u.test(tag) && !/[{}<>[\]%\n]/.test(tag) && !/^\p{N}+$/u.test(tag);
}

/** The `#tags` of a Markdown or text body, in order of appearance, not deduplicated. */
export function textTags(body: string, options: { indentedCode: boolean }): string[] {
  const tags: string[] = [];
  for (const line of proseLines(body, options)) {
    for (const m of line.matchAll(BRACKETED)) tags.push(m[1]!.trim());
    const bare = line.replace(BRACKETED, (s) => ' '.repeat(s.length));
    for (const m of bare.matchAll(HASHTAG)) {
      const tag = m[1]!.replace(/\/+$/, '');
      if (tag && !isColour(tag, bare.slice(0, m.index)) && validTag(tag)) tags.push(tag);
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
