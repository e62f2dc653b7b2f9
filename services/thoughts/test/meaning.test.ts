import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { RelatedAnswer, SearchPage, Thought } from '@haven/contracts/thoughts';
import { createEmbedder, isModelUnavailable } from '@haven/kit/llm';
import { createLogger } from '@haven/kit/logger';
import { startTestService, until } from '@haven/kit/testing';
import { DOUBLE_DIMS, doubleVector, startEmbeddingsDouble } from '../../../test/doubles/embeddings-server';
import { embeddings, thoughts } from '../src/db/schema';
import { bytesPerVector } from '../src/domain/meaning/codes';
import { createMeaning, embeddingContext, vectorOfBytes } from '../src/domain/meaning/meaning';
import { contentContext } from '../src/domain/present';
import { createTagSealer } from '../src/domain/tags';
import { thoughtsService } from '../src/service';

const MODEL = 'double-embed';

describe('search by meaning (embeddings)', () => {
  let model: Awaited<ReturnType<typeof startEmbeddingsDouble>>;
  let svc: Awaited<ReturnType<typeof startTestService>>;

  const call = async (userId: number, method: string, path: string, body?: unknown) => {
    const res = await fetch(svc.url + path, {
      method,
      headers: { ...svc.headers(userId), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Thought };
  };
  const write = async (userId: number, content: string, tags: string[] = []) =>
    (await call(userId, 'POST', '/api/thoughts', { content, tags, clientDate: '2025-03-01T10:00:00.000Z' }))
      .body;
  const vectorRow = async (thoughtId: number) =>
    (await svc.deps.db.select().from(embeddings).where(eq(embeddings.thoughtId, thoughtId)))[0];
  /** Another process's view of the same data (a replica): its own embedder, breaker and cache. */
  const replica = (overrides: { cacheBytes?: number; queryTimeoutMs?: number } = {}) =>
    createMeaning({
      db: svc.deps.db,
      cipher: svc.deps.cipher,
      tags: createTagSealer(svc.deps.cipher, svc.config.DATA_ENCRYPTION_KEY),
      embedder: createEmbedder(svc.config),
      dataKey: svc.config.DATA_ENCRYPTION_KEY,
      cacheBytes: overrides.cacheBytes ?? 64 * 1024 * 1024,
      queryTimeoutMs: overrides.queryTimeoutMs ?? svc.config.OPENAI_TIMEOUT_MS,
      log: createLogger({ name: 'test', level: 'silent' }),
    })!;
  /** Runs one embed job by hand and waits until the worker has finished it. */
  const runJob = async (userId: number, thoughtId: number, change: 'created' | 'updated' | 'deleted') => {
    const eventId = `manual${Math.random().toString(36).slice(2)}`;
    const jobId = await svc.deps.queues.add('thought.embed', { eventId, userId, thoughtId, change });
    const queue = svc.deps.queues.get('thought.embed');
    await until(async () => (await (await queue.getJob(jobId))?.getState()) === 'completed', 15_000, jobId);
  };
  /** Thoughts written straight into the table, with no event (as before meaning was turned on). */
  const insertDirect = async (userId: number, texts: string[]) =>
    svc.deps.db
      .insert(thoughts)
      .values(
        texts.map((text) => ({
          userId,
          contentEnc: svc.deps.cipher.encrypt(text, contentContext(userId)),
          localDate: '2025-01-01',
        })),
      )
      .returning({ id: thoughts.id });

  beforeAll(async () => {
    model = await startEmbeddingsDouble();
    svc = await startTestService(thoughtsService, {
      OPENAI_BASE_URL: model.url,
      OPENAI_EMBEDDINGS_MODEL: MODEL,
      OPENAI_TIMEOUT_MS: '1000',
      JOB_BACKOFF_MS: '50',
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await model?.stop();
  });

  it('stores each new thought’s vector encrypted, bound to its owner, with no floats in the clear', async () => {
    const thought = await write(7, 'Anxious about the rent this month', ['home']);
    await until(async () => (await vectorRow(thought.id)) !== undefined, 15_000, 'vector written');
    const row = (await vectorRow(thought.id))!;
    expect(row).toMatchObject({ userId: 7, model: MODEL, dims: DOUBLE_DIMS });
    expect(row.vectorEnc).toMatch(/^enc1\.[0-9a-f]{8}\./);
    expect(row.sourceKey).toMatch(/^[0-9a-f]{64}$/);
    // The vector of the text and its tags, scaled to length 1, is what decrypts…
    const expected = Float32Array.from(doubleVector('Anxious about the rent this month\n#home'));
    const stored = vectorOfBytes(svc.deps.cipher.decryptBytes(row.vectorEnc, embeddingContext(7)));
    expect(stored.length).toBe(DOUBLE_DIMS);
    stored.forEach((x, i) => expect(x).toBeCloseTo(expected[i]!, 5));
    // …while the stored value holds none of its float bytes, and does not open as another user's.
    const raw = Buffer.from(row.vectorEnc.split('.')[2]!, 'base64');
    const nonZero = expected.findIndex((x) => x !== 0);
    const floatBytes = Buffer.from(expected.buffer, nonZero * 4, 8);
    expect(raw.includes(floatBytes)).toBe(false);
    expect(raw.length).toBe(12 + 16 + DOUBLE_DIMS * 4);
    expect(() => svc.deps.cipher.decryptBytes(row.vectorEnc, embeddingContext(8))).toThrow();
  });

  it('is idempotent, and follows an edit and a deletion', async () => {
    const thought = await write(7, 'Slept badly again');
    await until(async () => (await vectorRow(thought.id)) !== undefined, 15_000, 'vector written');
    const first = (await vectorRow(thought.id))!;
    const asked = model.seen.inputs;
    // The same change again, and a change of category alone: the text is the same, nothing is asked.
    await runJob(7, thought.id, 'created');
    await call(7, 'PATCH', `/api/thoughts/${thought.id}`, { category: 'professional' });
    await runJob(7, thought.id, 'updated');
    expect(model.seen.inputs).toBe(asked);
    expect((await vectorRow(thought.id))!.vectorEnc).toBe(first.vectorEnc);
    // An edit of the text: a new vector from the new text.
    await call(7, 'PATCH', `/api/thoughts/${thought.id}`, { content: 'Slept well, a happy morning' });
    await until(
      async () => (await vectorRow(thought.id))!.sourceKey !== first.sourceKey,
      15_000,
      'vector redone',
    );
    const edited = vectorOfBytes(
      svc.deps.cipher.decryptBytes((await vectorRow(thought.id))!.vectorEnc, embeddingContext(7)),
    );
    expect(edited[0]).toBeCloseTo(doubleVector('Slept well, a happy morning')[0]!, 5);
    // Deleted: its vector goes with it, and a late job for it does nothing.
    await call(7, 'DELETE', `/api/thoughts/${thought.id}`);
    expect(await vectorRow(thought.id)).toBeUndefined();
    const before = model.seen.inputs;
    await runJob(7, thought.id, 'deleted');
    expect(model.seen.inputs).toBe(before);
    expect(await vectorRow(thought.id)).toBeUndefined();
  });

  it('retries a thought whose embedding failed, with backoff, until the model answers', async () => {
    model.state.fail = true;
    const requests = model.seen.requests;
    const thought = await write(7, 'Paid the bills at last');
    await until(() => model.seen.requests >= requests + 2, 15_000, 'two failed attempts');
    expect(await vectorRow(thought.id)).toBeUndefined();
    model.state.fail = false;
    // The breaker may have opened after three failures in a row: the job's retries outlast it.
    await until(async () => (await vectorRow(thought.id)) !== undefined, 30_000, 'vector after recovery');
  }, 40_000);

  it('backfills thoughts without a vector, 64 texts a call, and leaves current ones alone', async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `Old note number ${i} about the garden`);
    const ids = (await insertDirect(8, texts)).map((r) => r.id);
    const batches = model.seen.batches.length;
    const meaning = replica();
    expect(await meaning.backfill()).toBe(100);
    expect(model.seen.batches.slice(batches)).toEqual([64, 36]);
    const rows = await svc.deps.db.select().from(embeddings).where(eq(embeddings.userId, 8));
    expect(rows.map((r) => r.thoughtId).sort((a, b) => a - b)).toEqual(ids);
    const asked = model.seen.inputs;
    expect(await meaning.backfill()).toBe(0);
    expect(model.seen.inputs).toBe(asked);
  });

  it('sweeps up thoughts the jobs missed, giving up at once while the model is down', async () => {
    const [missed] = await insertDirect(13, ['Forgotten while the model was down']);
    const meaning = replica();
    model.state.fail = true;
    try {
      await expect(meaning.sweep()).rejects.toThrow();
    } finally {
      model.state.fail = false;
    }
    expect(await vectorRow(missed!.id)).toBeUndefined();
    expect(await meaning.sweep()).toBeGreaterThanOrEqual(1);
    expect(await vectorRow(missed!.id)).toBeDefined();
  });

  it('catches up a user’s thoughts that came without an event of their own (an import)', async () => {
    const [direct] = await insertDirect(11, ['Imported: a walk by the sea with my sister']);
    const thought = await write(11, 'A new thought after the import');
    await until(async () => (await vectorRow(direct!.id)) !== undefined, 15_000, 'imported thought embedded');
    expect(await vectorRow(thought.id)).toBeDefined();
  });

  it('finds a thought by meaning with no word in common, and never another user’s', async () => {
    const rent = await write(9, 'Anxious about the rent this month');
    const others = [
      await write(9, 'Went for a long run by the river'),
      await write(9, 'Dinner with Sam, lovely evening'),
      await write(9, 'Finished the quarterly report'),
    ];
    const foreign = await write(10, 'Worried about money and the bills');
    for (const t of [rent, ...others, foreign])
      await until(async () => (await vectorRow(t.id)) !== undefined, 15_000, 'vectors written');

    const query = 'When was I worried about money?';
    const words = (s: string) => new Set(s.toLowerCase().match(/\p{L}+/gu));
    const shared = [...words(query)].filter((w) => words(rent.content).has(w));
    expect(shared).toEqual(['about']); // a stop word; no word that means anything
    const meaning = replica();
    const hits = await meaning.search(9, query, 10);
    expect(hits[0]).toMatchObject({ id: rent.id });
    expect(hits[0]!.score).toBeGreaterThan(0.5);
    expect(hits.map((h) => h.id)).not.toContain(foreign.id);
    // Unrelated thoughts fall under the floor rather than trailing in as noise.
    expect(hits).toHaveLength(1);
    expect((await meaning.search(10, query, 10)).map((h) => h.id)).toEqual([foreign.id]);
    expect(await meaning.search(12, query, 10)).toEqual([]);

    // Related: the thought's own vector, itself left out; another user's thought is not found.
    const money = await write(9, 'Cash is tight, the bills keep coming');
    await until(async () => (await vectorRow(money.id)) !== undefined, 15_000, 'vector written');
    await new Promise((r) => setTimeout(r, 1100)); // past the once-a-second version check
    expect((await meaning.related(9, rent.id, 5))?.map((h) => h.id)).toEqual([money.id]);
    expect(await meaning.related(9, foreign.id, 5)).toBeNull();
    const [bare] = await insertDirect(9, ['Not embedded yet']);
    expect(await meaning.related(9, bare!.id, 5)).toBeNull();

    // A deletion by another process reaches this one's codes too.
    await call(9, 'DELETE', `/api/thoughts/${money.id}`);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await meaning.related(9, rent.id, 5))?.map((h) => h.id)).toEqual([]);
  });

  it('keeps its codes within the memory budget, least recently searched dropped first', async () => {
    for (const userId of [21, 22, 23])
      await insertDirect(
        userId,
        Array.from({ length: 50 }, (_, i) => `Entry ${i} of user ${userId}, worried about rent`),
      );
    await replica().backfill();
    // 50 vectors of 256 dims: 50 × (256 + 64 + 12) bytes each user; room for two users, not three.
    const perUser = 50 * bytesPerVector(DOUBLE_DIMS);
    expect(perUser).toBe(50 * (256 + 64 + 12));
    const meaning = replica({ cacheBytes: 2 * perUser + 100 });
    for (const userId of [21, 22, 23]) expect((await meaning.search(userId, 'money', 5)).length).toBe(5);
    expect(meaning.cacheStats()).toMatchObject({ users: 2, bytes: 2 * perUser });
    // One user larger than the whole budget is answered, and not kept.
    const small = replica({ cacheBytes: perUser - 1 });
    expect((await small.search(21, 'money', 5)).length).toBe(5);
    expect(small.cacheStats()).toMatchObject({ users: 0, bytes: 0 });
  });

  it('takes part in GET /api/thoughts/search and /related, and reports the model down', async () => {
    const rent = await write(31, 'Anxious about the rent this month');
    const walk = await write(31, 'A long walk by the river');
    const cash = await write(31, 'Cash is tight, the bills keep coming');
    await write(32, 'Worried about money and the bills');
    for (const t of [rent, walk, cash])
      await until(async () => (await vectorRow(t.id)) !== undefined, 15_000, 'vectors written');
    const get = async <T>(path: string) => {
      const res = await fetch(svc.url + path, { headers: svc.headers(31) });
      return { status: res.status, body: (await res.json()) as T };
    };
    const q = encodeURIComponent('When was I worried about money?');
    const page = await get<SearchPage>(`/api/thoughts/search?q=${q}`);
    expect(page.status).toBe(200);
    expect(page.body.meaning).toBe('on');
    expect(page.body.hits.map((h) => h.thought.id).sort()).toEqual([rent.id, cash.id].sort());
    expect(page.body.hits.every((h) => h.match === 'meaning')).toBe(true);
    const related = await get<RelatedAnswer>(`/api/thoughts/${rent.id}/related`);
    expect(related.body).toMatchObject({ basis: 'meaning' });
    expect(related.body.hits.map((h) => h.thought.id)).toEqual([cash.id]);

    model.state.fail = true;
    try {
      const down = await get<SearchPage>(`/api/thoughts/search?q=${encodeURIComponent('river')}`);
      expect(down.status).toBe(200);
      expect(down.body.meaning).toBe('down');
      expect(down.body.hits.map((h) => h.thought.id)).toEqual([walk.id]);
    } finally {
      model.state.fail = false;
    }
  });

  it('throws when the model does not answer, so the search can say meaning is down', async () => {
    const meaning = replica({ queryTimeoutMs: 500 });
    model.state.fail = true;
    try {
      const err = await meaning.search(9, 'money', 5).catch((e: unknown) => e);
      expect(isModelUnavailable(err)).toBe(true);
    } finally {
      model.state.fail = false;
    }
    model.state.hang = true;
    try {
      const started = Date.now();
      const err = await replica({ queryTimeoutMs: 500 })
        .search(9, 'money', 5)
        .catch((e: unknown) => e);
      expect(isModelUnavailable(err)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      model.state.hang = false;
    }
  });
});
