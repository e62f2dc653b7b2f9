/** Runs of white space as one space, trimmed. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A line's Markdown block marker: a heading, quote, bullet or numbered item, a task box. */
const BLOCK_MARKER = /^\s{0,3}(?:#{1,6}(?=\s|$)|>|[-*+](?=\s)|\d{1,9}[.)](?=\s))\s*(?:\[[ xX]\]\s+)?/;

/**
 * A thought quoted on one line of Markdown (a weekly review, an insight): its lines' block markers would be
 * shown as they are mid-line ("Monday: # Reading notes - The Overstory"), so they are dropped and
 * the lines joined with semicolons ("Monday: Reading notes; The Overstory"). Inline emphasis stays.
 */
export function quoteLine(text: string): string {
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    let line = raw;
    // Nested markers ("> 2. item"), a few levels at most.
    for (let i = 0; i < 4 && BLOCK_MARKER.test(line); i++) line = line.replace(BLOCK_MARKER, '');
    line = oneLine(line);
    if (line !== '' && !/^(?:[-*_]\s*){3,}$/.test(line)) lines.push(line);
  }
  // A line that ends a sentence runs on with a space; a heading or an item with a semicolon.
  return lines.reduce(
    (out, line) => (out === '' ? line : `${out}${/[.!?:;]$/.test(out) ? ' ' : '; '}${line}`),
    '',
  );
}
