import { parse, YAMLParseError } from 'yaml';

/** A note's YAML front matter and the text after it. */
export type FrontMatter = { meta: Record<string, unknown>; body: string } | { error: string; line: number };

/**
 * The YAML parser recurses once per level of nesting and overflows the stack at a few hundred
 * levels; a caught overflow can then abort the whole process at the next regex it compiles. Front
 * matter deeper than this, or larger, is refused before it is parsed. Real front matter is a few
 * levels deep and a few hundred bytes.
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

/**
 * Splits YAML front matter (`---` … `---` or `...` on the first line) from a note. A first line of
 * `---` never closed is a horizontal rule, not front matter: the note is all text. Malformed YAML
 * is an error naming its line in the file, and so is front matter over FRONT_MATTER_LIMITS.
 */
export function splitFrontMatter(text: string): FrontMatter {
  if (!/^---[ \t]*\n/.test(text)) return { meta: {}, body: text };
  const close = /\n(?:---|\.\.\.)[ \t]*(?:\n|$)/g;
  close.lastIndex = text.indexOf('\n');
  const end = close.exec(text);
  if (!end) return { meta: {}, body: text };
  const yaml = text.slice(text.indexOf('\n') + 1, end.index + 1);
  const body = text.slice(end.index + end[0].length);
  if (yaml.length > FRONT_MATTER_LIMITS.bytes)
    return { error: `The front matter is larger than ${FRONT_MATTER_LIMITS.bytes / 1024} KB`, line: 2 };
  if (yamlNesting(yaml) > FRONT_MATTER_LIMITS.depth)
    return {
      error: `The front matter is nested more than ${FRONT_MATTER_LIMITS.depth} levels deep`,
      line: 2,
    };
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
