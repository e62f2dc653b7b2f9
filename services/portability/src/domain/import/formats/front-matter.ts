import { parse, YAMLParseError } from 'yaml';

/** A note's YAML front matter and the text after it. */
export type FrontMatter = { meta: Record<string, unknown>; body: string } | { error: string; line: number };

/** The note's text as readers want it: no byte-order mark, `\n` line ends. */
export const normaliseText = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

/**
 * Splits YAML front matter (`---` … `---` or `...` on the first line) from a note. A first line of
 * `---` never closed is a horizontal rule, not front matter: the note is all text. Malformed YAML
 * is an error naming its line in the file.
 */
export function splitFrontMatter(text: string): FrontMatter {
  if (!/^---[ \t]*\n/.test(text)) return { meta: {}, body: text };
  const close = /\n(?:---|\.\.\.)[ \t]*(?:\n|$)/g;
  close.lastIndex = text.indexOf('\n');
  const end = close.exec(text);
  if (!end) return { meta: {}, body: text };
  const yaml = text.slice(text.indexOf('\n') + 1, end.index + 1);
  const body = text.slice(end.index + end[0].length);
  let parsed: unknown;
  try {
    // Core schema (YAML 1.2): `2021-02-26` stays a string, so no time zone touches it.
    parsed = parse(yaml, { uniqueKeys: false, maxAliasCount: 100, logLevel: 'error' });
  } catch (err) {
    const line = err instanceof YAMLParseError ? (err.linePos?.[0]?.line ?? 1) + 1 : 2;
    // The line is given on its own; YAML's "at line 2, column 1:" would name it again, counted differently.
    const message = ((err as Error).message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    return { error: `The front matter is not valid YAML: ${message}`, line };
  }
  if (parsed === null || parsed === undefined) return { meta: {}, body };
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    return { error: 'The front matter must be key: value lines', line: 2 };
  return { meta: parsed as Record<string, unknown>, body };
}

/** The value of a key, matched case-insensitively (`Title`, `TAGS`). */
export function metaValue(meta: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys)
    for (const [k, v] of Object.entries(meta)) if (k.toLowerCase() === key && v !== null) return v;
  return undefined;
}
