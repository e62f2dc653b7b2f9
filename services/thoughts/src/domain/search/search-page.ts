import type { SearchHit, SearchPage, SearchQuery, Thought } from '@haven/contracts/thoughts';
import { pageRecent, pageWithTagToken } from '../../db/search.repository';
import type { ThoughtListRow } from '../../db/thoughts.repository';
import { normaliseTag } from '../tags';
import type { SearchContext } from './context';
import { decodeCursor, encodeCursor, searchHash } from './cursor';
import { plainHit } from './hits';
import type { TextPage } from './text-page';

/** GET /api/thoughts/search: a tag's thoughts, every thought, or the text's page (see TextPage). */
export function createSearchPage(ctx: SearchContext, textPage: TextPage) {
  const { db, tags } = ctx;
  return async function page(userId: number, query: SearchQuery): Promise<SearchPage> {
    const hash = searchHash(query.q, query.tag || undefined);
    const cursor = query.cursor ? decodeCursor(query.cursor, hash) : undefined;
    const offset = cursor?.o ?? 0;
    if (query.tag) {
      const wanted = normaliseTag(query.tag);
      const page = await pageWithTagToken(db, userId, tags.tokenOf(userId, wanted), offset, query.limit);
      return listPage(ctx, page, offset, query.limit, hash, (t) =>
        plainHit(
          t,
          'tag',
          t.tags.filter((tag) => normaliseTag(tag) === wanted),
        ),
      );
    }
    if (!query.q) {
      return listPage(
        ctx,
        await pageRecent(db, userId, offset, query.limit),
        offset,
        query.limit,
        hash,
        (t) => plainHit(t, 'recent'),
      );
    }
    return textPage(userId, query.q, cursor, query.limit);
  };
}

/** A page of a simple newest-first list (a tag's thoughts, or all of them). */
function listPage(
  { present, meaning }: SearchContext,
  page: { rows: ThoughtListRow[]; total: number },
  offset: number,
  limit: number,
  hash: string,
  hit: (t: Thought) => SearchHit,
): SearchPage {
  const more = offset + limit < page.total && page.rows.length === limit;
  return {
    hits: page.rows.map((row) => hit(present(row))),
    total: page.total,
    nextCursor: more ? encodeCursor({ o: offset + limit, t: page.total, h: hash }) : null,
    meaning: meaning ? 'on' : 'off',
  };
}
