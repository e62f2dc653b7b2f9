import type { Highlight } from '@haven/contracts/thoughts';

/** A run of a text, marked when it is part of a match. */
export interface Segment {
  text: string;
  mark: boolean;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Moves an offset that falls between the two halves of a surrogate pair onto the pair's start. */
function snapBack(text: string, offset: number): number {
  return offset > 0 &&
    offset < text.length &&
    isLow(text.charCodeAt(offset)) &&
    isHigh(text.charCodeAt(offset - 1))
    ? offset - 1
    : offset;
}

/** Moves an offset that falls between the two halves of a surrogate pair past the pair's end. */
function snapForward(text: string, offset: number): number {
  return offset > 0 &&
    offset < text.length &&
    isLow(text.charCodeAt(offset)) &&
    isHigh(text.charCodeAt(offset - 1))
    ? offset + 1
    : offset;
}

/**
 * The spans as they can be drawn on `text`: kept inside it, never cutting a surrogate pair (an emoji
 * is marked whole or not at all), empty ones dropped, in order, overlapping or touching ones merged.
 */
export function normalizeHighlights(text: string, highlights: readonly Highlight[]): Highlight[] {
  const spans = highlights
    .map(({ start, end }) => ({
      start: snapBack(text, Math.max(0, Math.min(start, text.length))),
      end: snapForward(text, Math.max(0, Math.min(end, text.length))),
    }))
    .filter(({ start, end }) => end > start)
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Highlight[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** `text` cut into unmarked and marked runs by the highlights (UTF-16 offsets, as the server gives). */
export function splitHighlights(text: string, highlights: readonly Highlight[]): Segment[] {
  const segments: Segment[] = [];
  let at = 0;
  for (const { start, end } of normalizeHighlights(text, highlights)) {
    if (start > at) segments.push({ text: text.slice(at, start), mark: false });
    segments.push({ text: text.slice(start, end), mark: true });
    at = end;
  }
  if (at < text.length || segments.length === 0) segments.push({ text: text.slice(at), mark: false });
  return segments;
}

/** A part of a text, with the highlights that fall in it moved to its own offsets. */
export interface Excerpt {
  text: string;
  highlights: Highlight[];
  /** Text was left out before it, and after it. */
  cutStart: boolean;
  cutEnd: boolean;
}

/**
 * A short part of `text` around its first highlight, starting and ending at a space where one is
 * near (never inside a surrogate pair), line breaks read as spaces. With no highlight, the start.
 */
export function excerptAround(
  text: string,
  highlights: readonly Highlight[],
  { before = 40, length = 160 }: { before?: number; length?: number } = {},
): Excerpt {
  const spans = normalizeHighlights(text, highlights);
  const first = spans[0]?.start ?? 0;
  let start = Math.max(0, first - before);
  if (start > 0) {
    const space = text.slice(start, first).search(/\s/);
    start = space >= 0 ? start + space + 1 : start;
  }
  start = snapBack(text, start);
  let end = Math.min(text.length, Math.max(start + length, spans[0]?.end ?? 0));
  if (end < text.length) {
    const tail = text.slice(end, end + 20).search(/\s/);
    end = tail >= 0 ? end + tail : end;
  }
  end = snapForward(text, end);
  return {
    text: text.slice(start, end).replace(/\s+/g, (run) => ' '.repeat(run.length)),
    highlights: spans
      .filter((span) => span.start < end && span.end > start)
      .map((span) => ({ start: Math.max(span.start, start) - start, end: Math.min(span.end, end) - start })),
    cutStart: start > 0,
    cutEnd: end < text.length,
  };
}

/**
 * An excerpt of Markdown read as words: emphasis, code, heading and quote marks left out (never
 * inside a highlight), runs of spaces made one, the highlights moved with the text.
 */
export function withoutMarkdownMarks(excerpt: Excerpt): Excerpt {
  const { text, highlights } = excerpt;
  const inside = (at: number) => highlights.some((h) => at >= h.start && at < h.end);
  const map: number[] = []; // map[i]: the new offset of old offset i
  let out = '';
  for (let i = 0; i < text.length; i++) {
    map.push(out.length);
    const char = text[i]!;
    if (!inside(i) && /[*_`~#>]/.test(char)) continue;
    if (char === ' ' && (out === '' || out.endsWith(' ')) && !inside(i)) continue;
    out += char;
  }
  map.push(out.length);
  return {
    ...excerpt,
    text: out,
    highlights: highlights
      .map((h) => ({ start: map[h.start]!, end: map[h.end]! }))
      .filter((h) => h.end > h.start),
  };
}
