import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import Assembler from 'stream-json/assembler.js';
import { jsonParser } from 'stream-json/parser.js';

/**
 * One value of a streamed JSON list with the line it starts on (and the key of its list when the
 * lists were asked for by key), or why the file cannot be read.
 */
export type JsonItem = { value: unknown; line: number; list?: string } | { error: string; line: number };

type Token = { name: string; value?: unknown };

// stream-json's "no value" marker (stream-chain's `none`), which flushes its tokenizer.
const NONE = Symbol.for('object-stream.none');
const isOpen = (token: Token) => token.name === 'startObject' || token.name === 'startArray';
const isClose = (token: Token) => token.name === 'endObject' || token.name === 'endArray';
const tokensOf = (out: unknown): Token[] =>
  typeof out === 'object' && out !== null && Array.isArray((out as { values?: unknown }).values)
    ? (out as { values: Token[] }).values
    : [];

/**
 * The values of a JSON list, one at a time, however big the file: the top-level list (`key` null)
 * or the list under a top-level key (`'entries'` for Day One), or the lists under any of several
 * keys in the order the file has them (Simplenote's `activeNotes` and `trashedNotes`), each value
 * naming its list. Only the value being read is held.
 * The tokenizer is fed line by line, which gives each value its line and means a syntax error
 * loses nothing of the values on the lines before it. Errors of the stream itself (a passed
 * limit) propagate.
 */
export async function* jsonItems(
  stream: Readable,
  key: string | readonly string[] | null,
): AsyncGenerator<JsonItem> {
  const keys = typeof key === 'string' ? [key] : key;
  const tokenize = jsonParser({ packValues: true, streamValues: false }) as unknown as (
    input: string | symbol,
  ) => unknown;
  const decoder = new StringDecoder('utf8');
  const itemDepth = keys === null ? 1 : 2;
  let line = 1;
  let depth = 0;
  let inList = false;
  let listSeen = false;
  let lastKey: string | null = null;
  let list: string | null = null;
  let asm: Assembler | null = null;
  let start = 0;
  let first = true;

  /** Feeds the value being read to its assembler; the item once the value is complete. */
  const assemble = (assembler: Assembler, token: Token): JsonItem | null => {
    assembler.consume(token as never);
    if (!assembler.done) return null;
    asm = null;
    return item(assembler.current, start, list);
  };

  /** Follows the file's structure around the values: how deep it is, and whether in a wanted list. */
  const follow = (token: Token) => {
    if (depth === 1 && token.name === 'keyValue') lastKey = token.value as string;
    if (isOpen(token)) {
      depth++;
      if (
        depth === itemDepth &&
        (keys === null || (token.name === 'startArray' && lastKey !== null && keys.includes(lastKey)))
      ) {
        inList = listSeen = true;
        list = lastKey;
      }
    } else if (isClose(token)) {
      if (depth === itemDepth) inList = false;
      depth--;
    }
  };

  /** Values completed by these tokens; an error when the file's shape is not the expected one. */
  function* take(tokens: Token[]): Generator<JsonItem, boolean> {
    for (const token of tokens) {
      if (!asm) {
        if (depth === 0 && token.name !== (keys === null ? 'startArray' : 'startObject')) {
          yield notAList(keys, line);
          return false;
        }
        if (!inList || depth !== itemDepth || isClose(token)) {
          follow(token);
          continue;
        }
        // A value of the list starts.
        start = line;
        asm = new Assembler();
      }
      const value = assemble(asm, token);
      if (value) yield value;
    }
    return true;
  }

  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let text = decoder.write(chunk);
      if (first && text) [text, first] = [text.replace(/^\uFEFF/, ''), false];
      for (const piece of text.split(/(?<=\n)/)) {
        let tokens: Token[];
        try {
          tokens = tokensOf(tokenize(piece));
        } catch (err) {
          return yield syntaxError(err, line);
        }
        if (!(yield* take(tokens))) return;
        if (piece.endsWith('\n')) line++;
      }
    }
    let rest: Token[];
    try {
      rest = [...tokensOf(tokenize(decoder.end())), ...tokensOf(tokenize(NONE))];
    } catch (err) {
      return yield syntaxError(err, line);
    }
    if (!(yield* take(rest))) return;
    if (!listSeen) yield notAList(keys, 1);
  } finally {
    // Read to its end, or left early by the caller: nothing more is wanted from it either way.
    stream.destroy();
  }
}

const syntaxError = (err: unknown, line: number): JsonItem => ({
  error: `The file is not valid JSON (${((err as Error).message ?? '').split('\n')[0]})`,
  line,
});

const item = (value: unknown, line: number, list: string | null): JsonItem =>
  list === null ? { value, line } : { value, line, list };

const notAList = (keys: readonly string[] | null, line: number): JsonItem => ({
  error: keys === null ? 'The file must hold a list' : `The file has no "${keys[0]}" list`,
  line,
});
