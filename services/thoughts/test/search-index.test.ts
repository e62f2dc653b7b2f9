import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchPage, Thought } from '@haven/contracts/thoughts';
import { generateKey } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { createLogger } from '@haven/kit/logger';
import { startService } from '@haven/kit/service';
import { internalHeaders, startTestServices, until } from '@haven/kit/testing';
import { purgeUserRows } from '@haven/kit/user-deletion';
import { thoughtsService } from '../src/service';

let stack: Awaited<ReturnType<typeof startTestServices>>;
let db: Db;
let nextUser = 3000;

beforeAll(async () => {
  stack = await startTestServices([thoughtsService]);
  db = stack.get('thoughts').deps.db;
});
afterAll(async () => stack?.stop());

type RawRow = Record<string, unknown>;
const query = async (statement: ReturnType<typeof sql>) =>
  ((await db.execute(statement)) as { rows: RawRow[] }).rows;

/**
 * The user's stored totals against a count of their rows: every term's document frequency, the
 * number of thoughts and of words. Equal when every write kept them in step.
 */
async function totals(userId: number) {
  const stored = await query(
    sql`select term, df from thoughts.search_terms where user_id = ${userId} order by term`,
  );
  const counted = await query(sql`
    select w as term, count(*)::int as df
    from thoughts.thoughts t left join thoughts.search_grams g on g.thought_id = t.id,
      unnest(t.search_words || coalesce(g.grams, '{}')) as w
    where t.user_id = ${userId} group by w order by w`);
  const [stats] = await query(sql`select docs, words from thoughts.search_stats where user_id = ${userId}`);
  const [rows] = await query(sql`
    select count(*)::int as docs, coalesce(sum(search_len), 0)::int as words
    from thoughts.thoughts where user_id = ${userId}`);
  return {
    stored: {
      terms: stored.map((r) => [Number(r.term), Number(r.df)]),
      docs: Number(stats?.docs ?? 0),
      words: Number(stats?.words ?? 0),
    },
    counted: {
      terms: counted.map((r) => [Number(r.term), Number(r.df)]),
      docs: Number(rows!.docs),
      words: Number(rows!.words),
    },
  };
}
async function expectTotalsInStep(userId: number) {
  const { stored, counted } = await totals(userId);
  expect(stored).toEqual(counted);
}

function as(userId = nextUser++, url = () => stack.get('thoughts').url) {
  const call = async (method: string, path: string, body?: unknown, caller?: 'assistant' | 'portability') => {
    const res = await fetch(url() + path, {
      method,
      headers: {
        ...internalHeaders(stack.config, userId, 'thoughts', caller),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const create = async (content: string, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/thoughts', {
      content,
      clientDate: '2025-03-01T12:00:00.000Z',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body as Thought;
  };
  const ids = async (q: string) => {
    const res = await call('GET', `/api/thoughts/search?q=${encodeURIComponent(q)}&limit=50`);
    expect(res.status).toBe(200);
    return (res.body as SearchPage).hits.map((h) => h.thought.id);
  };
  return { userId, call, create, ids };
}

async function startAnotherInstance(overrides: Record<string, string> = {}) {
  return startService(thoughtsService, {
    config: { ...stack.config, ...overrides },
    database: stack.database,
    port: 0,
    log: createLogger({ name: 'thoughts', level: 'silent' }),
    serviceUrls: stack.urls,
  });
}

describe('the search index follows every write', () => {
  it('create, edit of content and of tags, and delete', async () => {
    const me = as();
    const t = await me.create('Planting tulips with Maria', { tags: ['Garden'] });
    const other = await me.create('Tulips again, and roses');
    expect(await me.ids('tulips')).toEqual([other.id, t.id]);
    expect(await me.ids('garden')).toEqual([t.id]);
    await expectTotalsInStep(me.userId);

    expect(
      (await me.call('PATCH', `/api/thoughts/${t.id}`, { content: 'Planting daffodils with Maria' })).status,
    ).toBe(200);
    expect(await me.ids('tulips')).toEqual([other.id]);
    expect(await me.ids('daffodil')).toEqual([t.id]);
    expect(await me.ids('garden')).toEqual([t.id]);
    await expectTotalsInStep(me.userId);

    expect((await me.call('PATCH', `/api/thoughts/${t.id}`, { tags: ['Allotment'] })).status).toBe(200);
    expect(await me.ids('garden')).toEqual([]);
    expect(await me.ids('allot')).toEqual([t.id]);
    expect(await me.ids('daffodils')).toEqual([t.id]);
    await expectTotalsInStep(me.userId);

    expect((await me.call('DELETE', `/api/thoughts/${t.id}`)).status).toBe(200);
    expect(await me.ids('maria')).toEqual([]);
    await expectTotalsInStep(me.userId);
    expect((await me.call('DELETE', `/api/thoughts/${other.id}`)).status).toBe(200);
    expect((await totals(me.userId)).stored).toEqual({ terms: [], docs: 0, words: 0 });
  });

  it('indexes a voice thought without its marker', async () => {
    const me = as();
    const t = await me.create('Walking by the river', { isVoice: true });
    const res = await me.call('GET', `/api/thoughts/search?q=walking`);
    const page = res.body as SearchPage;
    expect(page.hits.map((h) => h.thought.id)).toEqual([t.id]);
    expect(page.hits[0]!.highlights).toEqual([{ start: 0, end: 7 }]);
    expect(page.hits[0]!.match).toBe('phrase');
  });

  it('imports, once even when a batch is sent again', async () => {
    const me = as();
    const items = ['Met Tom at the harbour', 'Harbour lights at dusk'].map((content, i) => ({
      key: `import-key-${i}-abcdef`,
      content,
      date: `2024-05-0${i + 1}T10:00:00.000Z`,
      localDate: `2024-05-0${i + 1}`,
      category: 'personal',
      tags: i === 0 ? ['Seaside'] : [],
      isVoice: false,
    }));
    for (let n = 0; n < 2; n++)
      expect((await me.call('POST', '/internal/import/thoughts', { items }, 'portability')).status).toBe(200);
    expect(await me.ids('harbour')).toHaveLength(2);
    expect(await me.ids('seaside')).toHaveLength(1);
    await expectTotalsInStep(me.userId);
  });

  it('is deleted with the account', async () => {
    const me = as();
    await me.create('Something to forget');
    expect((await totals(me.userId)).stored.docs).toBe(1);
    await db.transaction((tx) => purgeUserRows(tx, 'thoughts', me.userId));
    expect((await totals(me.userId)).stored).toEqual({ terms: [], docs: 0, words: 0 });
  });

  it("holds no text, and another user's same words hash differently", async () => {
    const a = as();
    const b = as();
    const ta = await a.create('Lighthouse keeper');
    const tb = await b.create('Lighthouse keeper');
    const [ra, rb] = await Promise.all(
      [ta, tb].map(
        async (t) =>
          (
            await query(sql`select t.*, g.grams as search_grams
              from thoughts.thoughts t join thoughts.search_grams g on g.thought_id = t.id where t.id = ${t.id}`)
          )[0]!,
      ),
    );
    expect(JSON.stringify(ra).toLowerCase()).not.toContain('lighthouse');
    expect((ra!.search_words as number[]).filter((h) => (rb!.search_words as number[]).includes(h))).toEqual(
      [],
    );
    expect((ra!.search_grams as number[]).filter((h) => (rb!.search_grams as number[]).includes(h))).toEqual(
      [],
    );
    expect(await b.ids('lighthouse')).toEqual([tb.id]);
  });
});

describe('the index of stored thoughts', () => {
  it('is built at start for rows without one', async () => {
    const me = as();
    const t = await me.create('Fresh snow on the hills');
    await query(sql`update thoughts.thoughts
      set search_words = '{}', search_tf = '{}', search_len = 0, search_key = null
      where id = ${t.id}`);
    await query(sql`delete from thoughts.search_grams where thought_id = ${t.id}`);
    await query(sql`delete from thoughts.search_terms where user_id = ${me.userId}`);
    await query(sql`delete from thoughts.search_stats where user_id = ${me.userId}`);
    expect(await me.ids('snow')).toEqual([]);
    const restarted = await startAnotherInstance();
    try {
      await until(async () => (await me.ids('snow')).length === 1, 10_000, 'indexing');
      await expectTotalsInStep(me.userId);
    } finally {
      await restarted.close();
    }
  });

  // Last: after it, the rows are indexed (and their tags sealed) under a key the stack does not have.
  it('is rebuilt under a new data key after a rotation, totals counted again', async () => {
    const me = as();
    const t = await me.create('Before the rotation: owls at night', { tags: ['Birds'] });
    await me.create('Owls again');
    const before = (await query(sql`select search_words from thoughts.thoughts where id = ${t.id}`))[0]!;
    const rotated = await startAnotherInstance({
      DATA_ENCRYPTION_KEY: generateKey(),
      DATA_ENCRYPTION_OLD_KEYS: stack.config.DATA_ENCRYPTION_KEY,
    });
    try {
      const keyId = rotated.deps.cipher.currentKeyId;
      await until(
        async () =>
          (
            await query(
              sql`select count(*)::int as n from thoughts.thoughts where search_key not like ${`${keyId}:%`}`,
            )
          )[0]!.n === 0,
        20_000,
        'rotation',
      );
      const after = (await query(sql`select search_words from thoughts.thoughts where id = ${t.id}`))[0]!;
      expect(after.search_words).not.toEqual(before.search_words);
      const onRotated = as(me.userId, () => rotated.url);
      await until(
        async () => {
          const { stored, counted } = await totals(me.userId);
          return JSON.stringify(stored) === JSON.stringify(counted);
        },
        10_000,
        'recount',
      );
      expect(await onRotated.ids('owls')).toHaveLength(2);
      expect(await onRotated.ids('birds')).toEqual([t.id]);
    } finally {
      await rotated.close();
    }
  });
});
