/*
 * Day One escapes every punctuation mark of the user's text with a backslash (`I love this
 * state\!`, `a\/b`, even inside code); its own Markdown is written unescaped. Undone here in one
 * linear scan per line: entries are untrusted.
 */

/** ASCII punctuation: what CommonMark lets a backslash escape. */
const isPunctuation = (c: number) =>
  (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);

/** A space or tab, or the end of the line. */
export const isBlank = (c: string | undefined) => c === undefined || c === ' ' || c === '\t';

/** Whether the line from `from` on holds only `mark`, backslashes and spaces (`\-\-\-`, `===`). */
function onlyMarks(line: string, from: number, mark: string): boolean {
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (c !== mark && c !== '\\' && c !== ' ' && c !== '\t') return false;
  }
  return true;
}

/** How many `mark`s start the line at `from`, backslashes between them not counted. */
function marksAt(line: string, from: number, mark: string): number {
  let n = 0;
  for (let i = from; i < line.length && n < 3; i++) {
    if (line[i] === mark) n++;
    else if (line[i] !== '\\') break;
  }
  return n;
}

/**
 * The index of the one backslash of a line that must stay because without it the line would
 * start a block the user did not write (a heading, list item, quote, fence, rule or HTML block),
 * or -1. `\#tag` stays `#tag`: a `#` with no space after it is no heading.
 */
function neededEscape(line: string): number {
  let at = 0;
  while (line[at] === ' ' || line[at] === '\t') at++;
  return line[at] === '\\' ? markEscape(line, at) : numberEscape(line, at);
}

/** `2019\. was a good year`: unescaped, an ordered list item. The index of its backslash, or -1. */
function numberEscape(line: string, at: number): number {
  let end = at;
  while (end - at < 10 && line.charCodeAt(end) >= 48 && line.charCodeAt(end) <= 57) end++;
  const digits = end - at;
  return digits > 0 && digits < 10 && line[end] === '\\' && (line[end + 1] === '.' || line[end + 1] === ')')
    ? isBlank(line[end + 2])
      ? end
      : -1
    : -1;
}

/** The escaped mark at `at` (`\#`, `\-`, `\>`…) when it would start a block unescaped: `at`, else -1. */
function markEscape(line: string, at: number): number {
  const mark = line[at + 1];
  const next = line[at + 2];
  switch (mark) {
    case '#':
      return isBlank(next) || next === '#' || next === '\\' ? at : -1;
    case '>':
    case '<':
      return at;
    case '-':
    case '+':
    case '*':
      return isBlank(next) || onlyMarks(line, at + 2, mark) ? at : -1;
    case '=':
    case '_':
      return onlyMarks(line, at + 2, mark) ? at : -1;
    case '`':
    case '~':
      return marksAt(line, at + 1, mark) >= 3 ? at : -1;
    default:
      return -1;
  }
}

/**
 * Day One's Markdown as the user wrote it: every backslash escape of punctuation removed (`\!` →
 * `!`, `\/` → `/`, `\\` → `\`), in one pass so that an escaped backslash is never read again, and
 * Day One's own Markdown left as it is. The one escape that keeps a line from becoming a heading,
 * list item, quote or fence it never was stays.
 */
export function unescapeDayOne(text: string): string {
  if (!text.includes('\\')) return text;
  return text
    .split('\n')
    .map((line) => {
      let i = line.indexOf('\\');
      if (i < 0) return line;
      const keep = neededEscape(line);
      const parts: string[] = [];
      let from = 0;
      while (i >= 0) {
        if (i !== keep && isPunctuation(line.charCodeAt(i + 1))) {
          parts.push(line.slice(from, i));
          from = i + 1;
        }
        // Past the escaped character: in `\\.` the second backslash is text, not an escape.
        i = line.indexOf('\\', i + 2);
      }
      parts.push(line.slice(from));
      return parts.join('');
    })
    .join('\n');
}
