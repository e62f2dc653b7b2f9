import { and, asc, desc, eq, gt, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { searchGrams, searchStats, searchTerms, thoughts } from './schema';
import { listColumns, type ThoughtListRow } from './thoughts.repository';

/** Queries of the search index (see domain/search): every one scoped to its owner. */

type Row = Record<string, unknown>;
const rowsOf = async (db: DbOrTx, statement: SQL): Promise<Row[]> =>
  ((await db.execute(statement)) as unknown as { rows: Row[] }).rows;

/** An int[] (or float8[]) parameter, as one array literal whichever driver runs it. */
const intArray = (xs: number[]) => sql`${`{${xs.join(',')}}`}::int[]`;

/** The index columns written with a thought (its grams go to search_grams, see saveGrams). */
export interface IndexColumns {
  searchWords: number[];
  searchTf: number[];
  searchLen: number;
  searchKey: string;
}

/** What each write of a grams row sends as its pad (see the schema): over ~2 kB, so it is toasted. */
const PAD = sql`repeat(' ', 2100)`;

/** Writes (or replaces) thoughts' grams, in the transaction that writes their other index columns. */
export async function saveGrams(
  db: DbOrTx,
  userId: number,
  rows: Array<{ thoughtId: number; grams: number[] }>,
) {
  if (rows.length === 0) return;
  await db
    .insert(searchGrams)
    .values(rows.map((r) => ({ thoughtId: r.thoughtId, userId, grams: r.grams, pad: PAD })))
    .onConflictDoUpdate({
      target: searchGrams.thoughtId,
      set: { grams: sql`excluded.grams`, pad: sql`excluded.pad` },
    });
}

/** The stored grams of these of the user's thoughts, by thought id (absent: none stored). */
export async function gramsOf(db: DbOrTx, userId: number, ids: number[]): Promise<Map<number, number[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ thoughtId: searchGrams.thoughtId, grams: searchGrams.grams })
    .from(searchGrams)
    .where(and(eq(searchGrams.userId, userId), inArray(searchGrams.thoughtId, ids)));
  return new Map(rows.map((r) => [r.thoughtId, r.grams]));
}

/**
 * Adds to a user's totals: `docs` thoughts and `words` words more (or fewer), and each term's
 * document frequency changed by its delta. Terms go in sorted (two writers lock rows in the same
 * order), counts reaching 0 are removed. The stats row is written first: it is the user's lock.
 */
export async function applyCounts(
  db: DbOrTx,
  userId: number,
  change: { docs: number; words: number; terms: Map<number, number> },
): Promise<void> {
  await db
    .insert(searchStats)
    .values({ userId, docs: change.docs, words: change.words })
    .onConflictDoUpdate({
      target: searchStats.userId,
      set: {
        docs: sql`${searchStats.docs} + excluded.docs`,
        words: sql`${searchStats.words} + excluded.words`,
      },
    });
  const entries = [...change.terms].filter(([, d]) => d !== 0).sort((a, b) => a[0] - b[0]);
  if (entries.length === 0) return;
  const terms = intArray(entries.map(([t]) => t));
  await db.execute(sql`
    insert into thoughts.search_terms as s (user_id, term, df)
    select ${userId}, x.term, x.df
    from unnest(${terms}, ${intArray(entries.map(([, d]) => d))}) as x(term, df)
    on conflict (user_id, term) do update set df = s.df + excluded.df`);
  // A separate statement: the rows the upsert changed are not visible to another part of its own.
  if (entries.some(([, d]) => d < 0))
    await db.execute(
      sql`delete from thoughts.search_terms where user_id = ${userId} and term = any(${terms}) and df <= 0`,
    );
}

/**
 * Counts a user's totals again from their rows indexed under `searchKey` (after a key rotation the
 * counts of the old hashes are worth nothing). The stats row is locked first, as writers lock it.
 */
export async function recountUser(db: DbOrTx, userId: number, searchKey: string): Promise<void> {
  await db.execute(sql`
    insert into thoughts.search_stats (user_id, docs, words) values (${userId}, 0, 0)
    on conflict (user_id) do update set docs = 0, words = 0`);
  await db.delete(searchTerms).where(eq(searchTerms.userId, userId));
  await db.execute(sql`
    update thoughts.search_stats s set docs = c.docs, words = c.words
    from (select count(*)::int as docs, coalesce(sum(search_len), 0)::int as words
          from thoughts.thoughts where user_id = ${userId} and search_key = ${searchKey}) c
    where s.user_id = ${userId}`);
  await db.execute(sql`
    insert into thoughts.search_terms (user_id, term, df)
    select ${userId}, w, count(*)::int
    from thoughts.thoughts t
      left join thoughts.search_grams g on g.thought_id = t.id,
      unnest(t.search_words || coalesce(g.grams, '{}')) as w
    where t.user_id = ${userId} and t.search_key = ${searchKey}
    group by w order by w`);
}

/** A row the start-up indexer reads: the text it indexes and the index it replaces. */
export interface RowToIndex {
  id: number;
  userId: number;
  contentEnc: string;
  tagsEnc: string | null;
  legacyTags: string[] | null;
  searchWords: number[];
  searchLen: number;
  searchKey: string | null;
}

/** Rows after `afterId` not indexed under `searchKey` (never, or by a rotated key or older version). */
export function rowsToIndex(db: DbOrTx, searchKey: string, afterId: number, limit: number) {
  return db
    .select({
      id: thoughts.id,
      userId: thoughts.userId,
      contentEnc: thoughts.contentEnc,
      tagsEnc: thoughts.tagsEnc,
      legacyTags: thoughts.legacyTags,
      searchWords: thoughts.searchWords,
      searchLen: thoughts.searchLen,
      searchKey: thoughts.searchKey,
    })
    .from(thoughts)
    .where(and(gt(thoughts.id, afterId), or(isNull(thoughts.searchKey), ne(thoughts.searchKey, searchKey))))
    .orderBy(asc(thoughts.id))
    .limit(limit);
}

/** Writes an indexed row only if its text is still what was read (a user's edit meanwhile wins). */
export async function setIndexIfUnchanged(db: DbOrTx, row: RowToIndex, cols: IndexColumns) {
  const updated = await db
    .update(thoughts)
    .set(cols)
    .where(
      and(
        eq(thoughts.id, row.id),
        eq(thoughts.contentEnc, row.contentEnc),
        row.tagsEnc === null ? isNull(thoughts.tagsEnc) : eq(thoughts.tagsEnc, row.tagsEnc),
        row.searchKey === null ? isNull(thoughts.searchKey) : eq(thoughts.searchKey, row.searchKey),
      ),
    )
    .returning({ id: thoughts.id });
  return updated.length > 0;
}

/** A user's BM25 totals: thoughts indexed and the average words per thought. */
export async function userStats(db: DbOrTx, userId: number): Promise<{ docs: number; avgLen: number }> {
  const [row] = await db.select().from(searchStats).where(eq(searchStats.userId, userId));
  const docs = Math.max(row?.docs ?? 0, 1);
  return { docs, avgLen: Math.max((row?.words ?? 0) / docs, 1) };
}

/** The document frequency of each of these terms for the user (absent: 0). */
export async function termFrequencies(db: DbOrTx, userId: number, terms: number[]) {
  if (terms.length === 0) return new Map<number, number>();
  const rows = await rowsOf(
    db,
    sql`select term, df from thoughts.search_terms where user_id = ${userId} and term = any(${intArray(terms)})`,
  );
  return new Map(rows.map((r) => [Number(r.term), Number(r.df)]));
}

/** Query terms weighted for BM25. */
export interface WeightedTerms {
  terms: number[];
  idf: number[];
  avgLen: number;
}

/** BM25 (k1 1.2, b 0.75) of a row over the weighted terms, tf read from the row's parallel arrays. */
function bm25(w: WeightedTerms): SQL {
  if (w.terms.length === 0) return sql`0::float8`;
  // One plain expression per term (no subquery per row): idf · tf · (k1 + 1) / (tf + k1 · norm).
  const norm = sql`(1.2 * (0.25 + 0.75 * thoughts.search_len / ${w.avgLen}::float8))`;
  const parts = w.terms.map((term, i) => {
    const tf = sql`coalesce(thoughts.search_tf[array_position(thoughts.search_words, ${term}::int)], 0)::float8`;
    return sql`(${w.idf[i]!}::float8 * ${tf} * 2.2 / (${tf} + ${norm}))`;
  });
  return sql.join(parts, sql` + `);
}

/** What a substring search asks of the index. */
export interface SubstringQuery {
  grams: number[];
  /** Hashes of the query's whole words (tier 1), or empty when it has none. */
  words: number[];
  /** Hashes of the query's stems (tier 2). */
  stems: number[];
  /** The query is one word: a thought holding it whole holds its grams. */
  oneWord?: boolean;
  weights: WeightedTerms;
  /** Only the user's days in [start, end]. */
  range?: { start: string; end: string };
}

type Candidates = Pick<SubstringQuery, 'grams' | 'range'>;

const rangeOf = (q: Candidates) =>
  q.range ? sql` and thoughts.local_date between ${q.range.start} and ${q.range.end}` : sql``;

/**
 * FROM and WHERE of the user's thoughts holding every gram of the query (all of them when it has
 * none), within its range. Driven by the GIN index of search_grams: the owners are compared as
 * `user_id + 0` so that the planner cannot pick a b-tree on user_id instead and read every row of
 * the user (it does not count what the gram check costs). The hashes are the user's own, so the GIN
 * index finds their rows only (a collision is dropped by the owner check).
 */
function candidatesOf(userId: number, q: Candidates): SQL {
  if (q.grams.length === 0) return sql`thoughts.thoughts where thoughts.user_id = ${userId}${rangeOf(q)}`;
  return sql`thoughts.search_grams g join thoughts.thoughts on thoughts.id = g.thought_id
    where g.user_id + 0 = ${userId} and g.grams @> ${intArray(q.grams)}
      and thoughts.user_id + 0 = ${userId}${rangeOf(q)}`;
}

/**
 * How many of the user's thoughts hold every gram of the query: without a range, from the narrow
 * search_grams rows alone (the point of their table).
 */
export async function countCandidates(db: DbOrTx, userId: number, q: Candidates) {
  const statement =
    q.grams.length > 0 && !q.range
      ? sql`select count(*)::int as n from thoughts.search_grams g
            where g.user_id + 0 = ${userId} and g.grams @> ${intArray(q.grams)}`
      : sql`select count(*)::int as n from ${candidatesOf(userId, q)}`;
  const [row] = await rowsOf(db, statement);
  return Number(row?.n ?? 0);
}

/** Every candidate row (to check them all against the text), in no order. */
export async function candidateRows(db: DbOrTx, userId: number, q: Candidates) {
  const rows = await rowsOf(
    db,
    sql`select thoughts.user_id, thoughts.content_enc, thoughts.tags_enc, thoughts.tags
        from ${candidatesOf(userId, q)}`,
  );
  return rows.map((r) => ({
    userId: Number(r.user_id),
    contentEnc: r.content_enc as string,
    tagsEnc: (r.tags_enc as string | null) ?? null,
    legacyTags: (r.tags as string[] | null) ?? null,
  }));
}

export interface RankedId {
  id: number;
  tier: number;
}

/**
 * Candidates in rank order, `limit` from `offset`: all the query's words as whole words first, then
 * all its stems, then the rest; BM25 within a tier, newest first among equals.
 */
export async function rankCandidates(
  db: DbOrTx,
  userId: number,
  q: SubstringQuery,
  offset: number,
  limit: number,
): Promise<RankedId[]> {
  const rows = await rowsOf(db, rankSql(userId, q, offset, limit));
  return rows.map((r) => ({ id: Number(r.id), tier: Number(r.tier) }));
}

/** A tier's condition: all the words (1), all the stems but not all the words (2), neither (3). */
function tierCondition(q: SubstringQuery, tier: 1 | 2 | 3): SQL {
  if (q.words.length === 0) return tier === 3 ? sql`true` : sql`false`;
  const words = sql`thoughts.search_words @> ${intArray(q.words)}`;
  const stems = sql`thoughts.search_words @> ${intArray(q.stems)}`;
  if (tier === 1) return words;
  if (tier === 2) return sql`${stems} and not ${words}`;
  return sql`not ${stems}`;
}

/**
 * Ids of one tier's candidates, newest first, `limit` from `offset`: how a query with very many
 * candidates is ranked (the newest of a tier are found walking the date index, without scoring
 * every candidate).
 */
export async function tierCandidates(
  db: DbOrTx,
  userId: number,
  q: SubstringQuery,
  tier: 1 | 2 | 3,
  offset: number,
  limit: number,
  walk: boolean,
): Promise<number[]> {
  // Walking the date index finds the newest of a large tier after a few rows, but reads every row
  // of a small one: a small tier is found through the GIN indexes and sorted (`+ interval '0'`
  // keeps the planner from walking the date index).
  // The walk: the inner query (kept whole by `offset 0`) reads the user's rows newest first from
  // the (user_id, date) index, and stops once the outer limit is reached. Planned on its own, that
  // inner query would rather sort all the user's rows (cheaper when all are read), so sorting is
  // off while it is planned.
  // The row's grams are checked by a scalar subquery: one lookup per row walked. (An EXISTS would
  // become a join, and the planner, which cannot estimate how few rows hold the grams, would then
  // walk the whole date index once per such row.)
  const grams =
    q.grams.length > 0 && !(tier === 1 && q.oneWord)
      ? sql` and coalesce((select g.grams @> ${intArray(q.grams)} from thoughts.search_grams g
              where g.thought_id = thoughts.id), false)`
      : sql``;
  const statement = walk
    ? sql`select id from (
            select thoughts.id, thoughts.search_words, thoughts.local_date
            from thoughts.thoughts
            where thoughts.user_id = ${userId}
            order by thoughts.date desc, thoughts.id desc offset 0) as thoughts
          where ${tierCondition(q, tier)}${rangeOf(q)}${grams}
          limit ${limit} offset ${offset}`
    : tier < 3
      ? // Tiers 1 and 2 from the words' GIN index (they are fewer than the candidates of the grams).
        sql`select thoughts.id from thoughts.thoughts
            where thoughts.user_id + 0 = ${userId} and ${tierCondition(q, tier)}${rangeOf(q)}${grams}
            order by thoughts.date + interval '0' desc, thoughts.id desc limit ${limit} offset ${offset}`
      : sql`select thoughts.id from ${candidatesOf(userId, q)} and ${tierCondition(q, tier)}
            order by thoughts.date + interval '0' desc, thoughts.id desc limit ${limit} offset ${offset}`;
  if (!walk) return (await rowsOf(db, statement)).map((r) => Number(r.id));
  await db.execute(sql`select set_config('enable_sort', 'off', true)`);
  const rows = await rowsOf(db, statement);
  await db.execute(sql`select set_config('enable_sort', 'on', true)`);
  return rows.map((r) => Number(r.id));
}

/** The statement of `rankCandidates` (the benchmark explains it). */
export function rankSql(userId: number, q: SubstringQuery, offset: number, limit: number): SQL {
  const tier =
    q.words.length === 0
      ? sql`3`
      : sql`case when thoughts.search_words @> ${intArray(q.words)} then 1
                 when thoughts.search_words @> ${intArray(q.stems)} then 2 else 3 end`;
  return sql`select thoughts.id, ${tier} as tier, ${bm25(q.weights)} as score
        from ${candidatesOf(userId, q)}
        order by tier, score desc, thoughts.date desc, thoughts.id desc
        limit ${limit} offset ${offset}`;
}

/**
 * Rows holding any of the terms (the assistant's "any of these words"), best BM25 first, within
 * [start, end] when given, leaving out `exclude`.
 */
export async function rankAnyTerms(
  db: DbOrTx,
  userId: number,
  w: WeightedTerms,
  opts: {
    limit: number;
    start?: string;
    end?: string;
    exclude?: number;
    /** The rows to score: holding all of these terms, or any (default: any of the weighted ones). */
    holding?: { terms: number[]; all: boolean };
  },
): Promise<number[]> {
  if (w.terms.length === 0) return [];
  const holding = opts.holding ?? { terms: w.terms, all: false };
  const range =
    opts.start && opts.end ? sql` and thoughts.local_date between ${opts.start} and ${opts.end}` : sql``;
  const exclude = opts.exclude !== undefined ? sql` and thoughts.id <> ${opts.exclude}` : sql``;
  const rows = await rowsOf(
    db,
    sql`select thoughts.id, ${bm25(w)} as score from thoughts.thoughts
        where thoughts.user_id + 0 = ${userId}
          and thoughts.search_words ${holding.all ? sql`@>` : sql`&&`} ${intArray(holding.terms)}${range}${exclude}
        order by score desc, thoughts.date desc, thoughts.id desc limit ${opts.limit}`,
  );
  return rows.map((r) => Number(r.id));
}

/** The user's thoughts with the tag token, newest first, a page of them and how many in all. */
export async function pageWithTagToken(
  db: DbOrTx,
  userId: number,
  token: string,
  offset: number,
  limit: number,
) {
  const where = and(eq(thoughts.userId, userId), sql`${thoughts.tagIndex} @> array[${token}]::text[]`);
  const [rows, [count]] = await Promise.all([
    db
      .select(listColumns)
      .from(thoughts)
      .where(where)
      .orderBy(desc(thoughts.date), desc(thoughts.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(thoughts)
      .where(where),
  ]);
  return { rows: rows as ThoughtListRow[], total: Number(count?.n ?? 0) };
}

/** A page of all the user's thoughts, newest first, and how many there are. */
export async function pageRecent(db: DbOrTx, userId: number, offset: number, limit: number) {
  const where = eq(thoughts.userId, userId);
  const [rows, [count]] = await Promise.all([
    db
      .select(listColumns)
      .from(thoughts)
      .where(where)
      .orderBy(desc(thoughts.date), desc(thoughts.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(thoughts)
      .where(where),
  ]);
  return { rows: rows as ThoughtListRow[], total: Number(count?.n ?? 0) };
}

/** The rows of these ids (the user's only), unordered. */
export function rowsByIds(db: DbOrTx, userId: number, ids: number[]): Promise<ThoughtListRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select(listColumns)
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), sql`${thoughts.id} = any(${intArray(ids)})`));
}

/** A thought's word hashes (for "related"), or undefined when it is not the user's. */
export async function wordsOfThought(db: DbOrTx, userId: number, id: number) {
  const [row] = await db
    .select({ searchWords: thoughts.searchWords, searchKey: thoughts.searchKey })
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), eq(thoughts.id, id)));
  return row;
}

/** Of these terms, the user's `limit` rarest that at least `minDf` thoughts hold. */
export async function rarestTerms(db: DbOrTx, userId: number, terms: number[], minDf: number, limit: number) {
  if (terms.length === 0) return [];
  const rows = await rowsOf(
    db,
    sql`select term, df from thoughts.search_terms
        where user_id = ${userId} and term = any(${intArray(terms)}) and df >= ${minDf}
        order by df, term limit ${limit}`,
  );
  return rows.map((r) => ({ term: Number(r.term), df: Number(r.df) }));
}

/** The user's thoughts on this month and day of earlier years, latest year first, newest first. */
export function sameDayEarlierYears(db: DbOrTx, userId: number, date: string): Promise<ThoughtListRow[]> {
  return db
    .select(listColumns)
    .from(thoughts)
    .where(
      and(
        eq(thoughts.userId, userId),
        sql`extract(month from ${thoughts.localDate}) = extract(month from ${date}::date)`,
        sql`extract(day from ${thoughts.localDate}) = extract(day from ${date}::date)`,
        sql`${thoughts.localDate} < date_trunc('year', ${date}::date)::date`,
      ),
    )
    .orderBy(desc(thoughts.localDate), desc(thoughts.date), desc(thoughts.id)) as Promise<ThoughtListRow[]>;
}

/** A user's thoughts in [start, end], oldest first, at most `limit`. */
export function periodRows(db: DbOrTx, userId: number, start: string, end: string, limit: number) {
  return db
    .select(listColumns)
    .from(thoughts)
    .where(and(eq(thoughts.userId, userId), sql`${thoughts.localDate} between ${start} and ${end}`))
    .orderBy(asc(thoughts.date), asc(thoughts.id))
    .limit(limit) as Promise<ThoughtListRow[]>;
}
