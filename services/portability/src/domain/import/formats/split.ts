import { MAX_CONTENT_LENGTH } from '@haven/contracts/thoughts';

/**
 * Notes longer than a thought become several thoughts, cut where the writer paused: at headings,
 * else between paragraphs, else between lines, else between words (a single word longer than a
 * whole part is the only thing ever cut). Nothing is dropped but the blank space at the cuts.
 */

const HEADING = /^#{1,6}\s/;
const FENCE = /^\s*(?:[-*+]\s+)?(`{3,}|~{3,})/;

/** The text cut before each heading outside code fences. */
function sections(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const f = FENCE.exec(line)?.[1];
    if (f && (fence === null || f.startsWith(fence))) fence = fence === null ? f : null;
    else if (fence === null && HEADING.test(line) && current.some((l) => l.trim())) {
      out.push(current.join('\n'));
      current = [];
    }
    current.push(line);
  }
  out.push(current.join('\n'));
  return out;
}

/** The words of a line, each with the spaces after it, then any word too long cut to size. */
function words(line: string, budget: number): string[] {
  const out: string[] = [];
  for (const word of line.match(/\S+\s*|\s+/g) ?? [])
    for (let i = 0; i < word.length; i += budget) out.push(word.slice(i, i + budget));
  return out;
}

const LEVELS: Array<(text: string, budget: number) => string[]> = [
  (t) => sections(t),
  (t) => t.split(/(?<=\n\n)/),
  (t) => t.split(/(?<=\n)/),
  words,
];

/** Packs pieces of `text` greedily into chunks of at most `budget` characters, finer cuts as needed. */
function pack(text: string, budget: number, level = 0): string[] {
  if (text.length <= budget) return [text];
  const split = LEVELS[level]!;
  const pieces = split(text, budget);
  const sep = level === 0 ? '\n' : '';
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (piece.length > budget) {
      if (current) chunks.push(current);
      current = '';
      chunks.push(...pack(piece, budget, level + 1));
      continue;
    }
    const joined = current ? current + sep + piece : piece;
    if (joined.length <= budget) current = joined;
    else {
      chunks.push(current);
      current = piece;
    }
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * The contents of a note's thoughts. The first line of each part says which part it is
 * (`# Title (part 2 of 3)`, or the bare title line for plain text); `heading` is the note's title
 * line (`# Title` or `Title`) and `body` the text after it.
 */
export function splitNote(heading: string, body: string, max = MAX_CONTENT_LENGTH): string[] {
  const whole = heading ? `${heading}\n\n${body}` : body;
  if (whole.length <= max) return [whole];
  const label = (n: number, of: number) =>
    heading ? `${heading} (part ${n} of ${of})` : `(part ${n} of ${of})`;
  // Room for the longest label a note up to 1 MB (or ten times as many parts) could need.
  const budget = max - label(99_999, 99_999).length - 2;
  // A title too long to head every part is kept as the first part's text instead (with no room
  // left, the budget would be nothing, or less than nothing, and the cutting would never end).
  if (heading && budget < max / 2) return splitNote('', whole, max);
  const chunks = pack(body, budget)
    // trimEnd, not /\s+$/: that regex is quadratic on a long run of spaces inside a part.
    .map((c) => c.replace(/^\n+/, '').trimEnd())
    .filter((c) => c.trim());
  return chunks.map((chunk, i) => `${label(i + 1, chunks.length)}\n\n${chunk}`);
}
