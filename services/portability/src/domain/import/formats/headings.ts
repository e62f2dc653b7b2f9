/**
 * ATX headings (`# Title ##`) read by scanning, not by regexes: patterns like
 * `/^#\s+(.+?)(?:\s+#+)?\s*$/` backtrack over every run of spaces inside the line, and a heading
 * line of a hundred thousand spaces took seconds (the readers' fuzz test found 50 s).
 */

const SPACE = /\s/;
const isSpace = (c: string | undefined) => c !== undefined && SPACE.test(c);
// What a regex `.` does not match: heading text holding one is no heading for the patterns this
// replaces (their `\s` around the text takes them).
const BREAKS = /[\r\u2028\u2029]/;
const noBreaks = (text: string) => (text && !BREAKS.test(text) ? text : null);

/** `text` without a closing sequence: the `#`s at its end when a space comes before them. */
function withoutClosingHashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  return end < text.length && isSpace(text[end - 1]) ? text.slice(0, end).trimEnd() : text;
}

/**
 * The text of a level-1 heading line (`# Title`, `# Title ##`), or null: what
 * `/^#\s+(.+?)(?:\s+#+)?\s*$/` captured.
 */
export function titleHeading(line: string): string | null {
  if (line[0] !== '#' || !isSpace(line[1])) return null;
  return noBreaks(withoutClosingHashes(line.slice(1).trim()));
}

/** The text of a level-1 heading line with any trailing `#`s kept: what `/^#\s+(.+?)\s*$/` captured. */
export function plainTitleHeading(line: string): string | null {
  if (line[0] !== '#' || !isSpace(line[1])) return null;
  return noBreaks(line.slice(1).trim());
}

/**
 * A heading line of any level as its words, lower-cased, for comparing it with a title: what
 * `line.replace(/^#{1,6}\s+/, '').replace(/\s+#+\s*$/, '').trim().toLowerCase()` gave.
 */
export function headingWords(line: string): string {
  let level = 0;
  while (level < 6 && line[level] === '#') level++;
  const text = level > 0 && isSpace(line[level]) ? line.slice(level).trimStart() : line;
  return withoutClosingHashes(text.trimEnd()).trim().toLowerCase();
}

/** The text of a heading line of any level (`## Title`), case kept, or null when it is none. */
export function headingText(line: string): string | null {
  let level = 0;
  while (level < 6 && line[level] === '#') level++;
  if (level === 0 || !isSpace(line[level])) return null;
  return noBreaks(withoutClosingHashes(line.slice(level).trim()));
}
