import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchPage, Thought } from '@haven/contracts/thoughts';
import { createLogger } from '@haven/kit/logger';
import { internalHeaders, startTestServices } from '@haven/kit/testing';
import { BAD_CURSOR, OTHER_SEARCH_CURSOR } from '../src/domain/search/cursor';
import { createSearchHashes } from '../src/domain/search/hashes';
import type { MeaningSearch } from '../src/domain/search/meaning-port';
import { createSearch, fuseRanks } from '../src/domain/search/search';
import { createTagSealer } from '../src/domain/tags';
import { thoughtsService } from '../src/service';

let stack: Awaited<ReturnType<typeof startTestServices>>;
let nextUser = 700;

beforeAll(async () => {
  stack = await startTestServices([thoughtsService]);
});
afterAll(async () => stack?.stop());

/** A client acting as one user. */
function as(userId = nextUser++) {
  const create = async (content: string, extra: Record<string, unknown> = {}) => {
    const res = await stack.call('thoughts', userId, 'POST', '/api/thoughts', {
      content,
      clientDate: '2025-03-01T12:00:00.000Z',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body as Thought;
  };
  const search = async (params: Record<string, string>) => {
    const res = await stack.call(
      'thoughts',
      userId,
      'GET',
      `/api/thoughts/search?${new URLSearchParams(params)}`,
    );
    return res as { status: number; body: SearchPage & { message?: string } };
  };
  const ids = async (q: string) => {
    const res = await search({ q, limit: '50' });
    expect(res.status).toBe(200);
    return res.body.hits.map((h) => h.thought.id);
  };
  const internal = async (params: Record<string, string>) => {
    const res = await fetch(
      `${stack.get('thoughts').url}/internal/thoughts/search?${new URLSearchParams(params)}`,
      {
        headers: internalHeaders(stack.config, userId, 'thoughts', 'assistant'),
      },
    );
    expect(res.status).toBe(200);
    return (await res.json()) as Thought[];
  };
  const call = (method: string, path: string, body?: unknown) =>
    stack.call('thoughts', userId, method, path, body);
  return { userId, create, search, ids, internal, call };
}

describe('search', () => {
  it('ranks whole words before substrings, newest first among equals', async () => {
    const me = as();
    const mum = await me.create('Call mum tomorrow', { clientDate: '2025-03-03T12:00:00.000Z' });
    const tom = await me.create('Tom called', { clientDate: '2025-03-01T12:00:00.000Z' });
    const toward = await me.create('Walking toward the sea', { clientDate: '2025-03-04T12:00:00.000Z' });
    const war = await me.create('Reading about the war', { clientDate: '2025-03-02T12:00:00.000Z' });
    expect(await me.ids('Tom')).toEqual([tom.id, mum.id]);
    expect(await me.ids('war')).toEqual([war.id, toward.id]);
    const page = (await me.search({ q: 'war' })).body;
    expect(page.total).toBe(2);
    expect(page.hits.map((h) => h.match)).toEqual(['phrase', 'substring']);
    expect(page.meaning).toBe('off');
  });

  it('highlights accented and curly-quoted text where it is', async () => {
    const me = as();
    const t = await me.create('Un café à Zürich — “Déjà vu” it’s called');
    const page = (await me.search({ q: 'deja VU' })).body;
    expect(page.hits).toHaveLength(1);
    const [h] = page.hits[0]!.highlights;
    expect(t.content.slice(h!.start, h!.end)).toBe('Déjà vu');
    const quote = (await me.search({ q: "it's" })).body.hits[0]!;
    expect(quote.highlights.map((s) => t.content.slice(s.start, s.end))).toEqual(['it’s']);
    expect((await me.search({ q: 'zurich' })).body.hits[0]!.match).toBe('phrase');
  });

  it("never finds another user's thoughts", async () => {
    const a = as();
    const b = as();
    await a.create('The secret garden of marigolds');
    expect(await b.ids('marigolds')).toEqual([]);
    expect(await b.ids('ma')).toEqual([]);
  });

  it('pages with cursors, and refuses a cursor of another search or a broken one', async () => {
    const me = as();
    const made: number[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        (await me.create(`Lemon tart number ${i}`, { clientDate: `2025-03-0${i + 1}T12:00:00.000Z` })).id,
      );
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await me.search({ q: 'lemon', limit: '3', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(7);
      seen.push(...res.body.hits.map((h) => h.thought.id));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...made].reverse());

    const first = (await me.search({ q: 'lemon', limit: '3' })).body.nextCursor!;
    const other = await me.search({ q: 'tart', cursor: first });
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(OTHER_SEARCH_CURSOR);
    const broken = await me.search({ q: 'lemon', cursor: 'not-a-cursor' });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toBe(BAD_CURSOR);
    const long = await me.search({ q: 'x'.repeat(201) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('Search text is limited to 200 characters');
  });

  it('lists a tag, and everything newest first without a query', async () => {
    const me = as();
    const a = await me.create('One', { tags: ['Work'], clientDate: '2025-03-01T12:00:00.000Z' });
    const b = await me.create('Two', { tags: ['work'], clientDate: '2025-03-02T12:00:00.000Z' });
    const c = await me.create('Three work', { clientDate: '2025-03-03T12:00:00.000Z' });
    const tagged = (await me.search({ tag: 'WORK' })).body;
    expect(tagged.hits.map((h) => [h.thought.id, h.match, h.matchedTags])).toEqual([
      [b.id, 'tag', ['work']],
      [a.id, 'tag', ['Work']],
    ]);
    expect(tagged.total).toBe(2);
    const recent = (await me.search({})).body;
    expect(recent.hits.map((h) => [h.thought.id, h.match])).toEqual([
      [c.id, 'recent'],
      [b.id, 'recent'],
      [a.id, 'recent'],
    ]);
    expect(recent.total).toBe(3);
  });

  it('finds related thoughts by shared rare words, and not for another user', async () => {
    const me = as();
    const t = await me.create('Sailing the catamaran past the lighthouse');
    const alike = await me.create('The catamaran needs new sails and the lighthouse keeper waved');
    await me.create('Sailing again, catamaran and lighthouse');
    await me.create('Nothing in common here at all');
    const res = await me.call('GET', `/api/thoughts/${t.id}/related?limit=5`);
    expect(res.status).toBe(200);
    const body = res.body as { basis: string; hits: Array<{ thought: Thought; match: string }> };
    expect(body.basis).toBe('words');
    expect(body.hits.map((h) => h.thought.id)).toContain(alike.id);
    expect(body.hits.map((h) => h.thought.id)).not.toContain(t.id);
    expect(body.hits).toHaveLength(2);
    expect((await as().call('GET', `/api/thoughts/${t.id}/related`)).status).toBe(404);
  });

  it('shows the same day of earlier years, the latest year first', async () => {
    const me = as();
    const y2023 = await me.create('Long ago', { clientDate: '2023-06-15T09:00:00.000Z', timezoneOffset: 0 });
    const y2024a = await me.create('Last year, morning', {
      clientDate: '2024-06-15T09:00:00.000Z',
      timezoneOffset: 0,
    });
    const y2024b = await me.create('Last year, evening', {
      clientDate: '2024-06-15T19:00:00.000Z',
      timezoneOffset: 0,
    });
    await me.create('Another day', { clientDate: '2024-06-16T09:00:00.000Z', timezoneOffset: 0 });
    await me.create('Today itself', { clientDate: '2025-06-15T09:00:00.000Z', timezoneOffset: 0 });
    const res = await me.call('GET', '/api/thoughts/on-this-day?date=2025-06-15');
    expect(res.status).toBe(200);
    expect((res.body as Thought[]).map((t) => t.id)).toEqual([y2024b.id, y2024a.id, y2023.id]);
  });

  it("answers the assistant's questions by any of their words, without the question words", async () => {
    const me = as();
    const tom = await me.create('Lunch with Tom at the harbour', { clientDate: '2025-03-01T12:00:00.000Z' });
    const both = await me.create('Tom and I walked along the harbour wall', {
      clientDate: '2025-03-05T12:00:00.000Z',
    });
    await me.create('What a day, I did write a lot', { clientDate: '2025-03-06T12:00:00.000Z' });
    const found = await me.internal({ q: 'what did I write about Tom and the harbour?', match: 'words' });
    expect(found.map((t) => t.id).sort()).toEqual([tom.id, both.id].sort());
    const inMarch = await me.internal({
      q: 'harbour',
      match: 'words',
      start: '2025-03-04',
      end: '2025-03-31',
    });
    expect(inMarch.map((t) => t.id)).toEqual([both.id]);
    const period = await me.internal({ q: '', start: '2025-03-01', end: '2025-03-05' });
    expect(period.map((t) => t.id)).toEqual([tom.id, both.id]);
    expect((await me.internal({ q: 'harbour wall' })).map((t) => t.id)).toEqual([both.id]);
  });
});

describe('search with meaning', () => {
  /** The search domain over the stack's database, with a meaning side given by the test. */
  function searchWith(meaning: MeaningSearch | null, limits?: { verifyAll: number; rankAll: number }) {
    const deps = stack.get('thoughts').deps;
    return createSearch({
      db: deps.db,
      cipher: deps.cipher,
      tags: createTagSealer(deps.cipher, stack.config.DATA_ENCRYPTION_KEY),
      hashes: createSearchHashes(stack.config.DATA_ENCRYPTION_KEY, deps.cipher.currentKeyId),
      meaning,
      log: createLogger({ name: 'test', level: 'silent' }),
      limits,
    });
  }

  it('fuses by reciprocal rank', () => {
    // 3 is in both; 2 and 4 tie (second in one list each): the word results come first.
    expect(fuseRanks([1, 2, 3], [3, 4])).toEqual([3, 1, 2, 4]);
    expect(fuseRanks([1, 2], [])).toEqual([1, 2]);
    expect(fuseRanks([], [5, 6])).toEqual([5, 6]);
  });

  it('merges meaning into the first page, counts what only it found, and falls back when it fails', async () => {
    const me = as();
    const dog = await me.create('Walked the dog in the rain', { clientDate: '2025-03-01T12:00:00.000Z' });
    const puppy = await me.create('The puppy chewed my slippers', { clientDate: '2025-03-02T12:00:00.000Z' });
    const dogs = [];
    for (let i = 0; i < 4; i++)
      dogs.push(await me.create(`Dog day ${i}`, { clientDate: `2025-04-0${i + 1}T12:00:00.000Z` }));
    let fail = false;
    const meaning: MeaningSearch = {
      search: async (userId) => {
        if (fail) throw new Error('model down');
        return userId === me.userId
          ? [
              { id: puppy.id, score: 0.9 },
              { id: dog.id, score: 0.8 },
            ]
          : [];
      },
      related: async () => null,
    };
    const search = searchWith(meaning);
    const first = await search.page(me.userId, { q: 'dog', limit: 3 } as never);
    expect(first.meaning).toBe('on');
    expect(first.total).toBe(6);
    expect(first.hits[0]!.thought.id).toBe(dog.id);
    expect(first.hits.find((h) => h.thought.id === puppy.id)?.match).toBe('meaning');
    const ids = first.hits.map((h) => h.thought.id);
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await search.page(me.userId, { q: 'dog', limit: 3, cursor } as never);
      ids.push(...next.hits.map((h) => h.thought.id));
      cursor = next.nextCursor;
    }
    expect([...ids].sort()).toEqual([dog.id, puppy.id, ...dogs.map((d) => d.id)].sort());

    fail = true;
    const down = await search.page(me.userId, { q: 'dog', limit: 10 } as never);
    expect(down.meaning).toBe('down');
    expect(down.hits.map((h) => h.thought.id)).not.toContain(puppy.id);
    expect(down.total).toBe(5);
    expect((await searchWith(null).page(me.userId, { q: 'dog', limit: 10 } as never)).meaning).toBe('off');
  });

  it('pages the same way when candidates are many (checked all, counted, or ranked tier by tier)', async () => {
    const me = as();
    const texts = [
      'Tom called',
      'tomorrow maybe',
      'Tom, Tom and Tom',
      'atom bomb',
      'the tomato',
      'Toms',
      'TOM',
    ];
    const made = [];
    for (const [i, text] of texts.entries())
      made.push(await me.create(text, { clientDate: `2025-05-0${i + 1}T12:00:00.000Z` }));
    for (const limits of [
      { verifyAll: 0, rankAll: 0 },
      { verifyAll: 2, rankAll: 1000 },
      { verifyAll: 1000, rankAll: 1000 },
    ]) {
      const search = searchWith(null, limits);
      for (const q of ['tom', 'to', 't', 'tom called', 'tomat']) {
        const ids: number[] = [];
        let cursor: string | null = null;
        do {
          const page: Awaited<ReturnType<typeof search.page>> = await search.page(me.userId, {
            q,
            limit: 2,
            ...(cursor ? { cursor } : {}),
          } as never);
          ids.push(...page.hits.map((h) => h.thought.id));
          cursor = page.nextCursor;
        } while (cursor);
        const want = made.filter((t) => t.content.toLowerCase().includes(q)).map((t) => t.id);
        expect([...ids].sort(), `${q} ${JSON.stringify(limits)}`).toEqual([...want].sort());
      }
      const tiered = await search.page(me.userId, { q: 'tom', limit: 10 } as never);
      expect(tiered.hits.slice(0, 3).map((h) => h.match)).toEqual(['phrase', 'phrase', 'phrase']);
    }
  });
});
