import { createHash } from 'node:crypto';
import { badRequest } from '@haven/kit/errors';

/**
 * Where the next page of a search starts: `o` the next raw rank of the word results, `m` the next
 * place in the first page's merged list (word and meaning results fused; absent once past it), `t`
 * the total counted by the first page, `h` which search it belongs to, `f` whether meaning's results
 * were fused into the first page.
 */
export interface SearchCursor {
  o: number;
  m?: number;
  t: number;
  h: string;
  /** The tier `o` counts in, when a query with very many candidates is ranked tier by tier. */
  k?: number;
  /** Set when meaning took part in the first page (later pages leave out what it brought). */
  f?: number;
}

export const BAD_CURSOR = 'This page link is not valid; search again';
export const OTHER_SEARCH_CURSOR = 'This page link belongs to another search; search again';

/** A short hash of what was searched, so a cursor only continues its own search. */
export const searchHash = (q: string, tag: string | undefined) =>
  createHash('sha256')
    .update(JSON.stringify([q, tag ?? null]))
    .digest('base64url')
    .slice(0, 12);

export const encodeCursor = (c: SearchCursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The cursor as given, checked: 400 when it is not one of ours or belongs to another search. */
export function decodeCursor(raw: string, hash: string): SearchCursor {
  let c: Partial<SearchCursor>;
  try {
    c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<SearchCursor>;
  } catch {
    throw badRequest(BAD_CURSOR);
  }
  if (
    typeof c !== 'object' ||
    c === null ||
    !isCount(c.o) ||
    !isCount(c.t) ||
    (c.m !== undefined && !isCount(c.m)) ||
    (c.k !== undefined && c.k !== 1 && c.k !== 2 && c.k !== 3) ||
    typeof c.h !== 'string'
  )
    throw badRequest(BAD_CURSOR);
  if (c.h !== hash) throw badRequest(OTHER_SEARCH_CURSOR);
  return { o: c.o, m: c.m, k: c.k, t: c.t, h: c.h, f: c.f === 1 ? 1 : undefined };
}
