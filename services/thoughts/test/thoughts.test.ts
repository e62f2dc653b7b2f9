import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Thought } from '@haven/contracts/thoughts';
import { internalHeaders, startTestService } from '@haven/kit/testing';
import { outbox, thoughts } from '../src/db/schema';
import { contentContext } from '../src/domain/present';
import { thoughtsService } from '../src/service';

let svc: Awaited<ReturnType<typeof startTestService>>;
let nextUser = 100;

beforeAll(async () => {
  svc = await startTestService(thoughtsService);
});
afterAll(async () => svc?.stop());

/** A client acting as one user, straight to the service with the gateway's internal token. */
function as(userId = nextUser++) {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(svc.url + path, {
      method,
      headers: {
        ...internalHeaders(svc.config, userId, 'thoughts'),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    userId,
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown) => call('POST', path, body),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    delete: (path: string) => call('DELETE', path),
    create: async (body: Record<string, unknown>) => {
      const res = await call('POST', '/api/thoughts', {
        clientDate: '2025-01-05T12:00:00.000Z',
        timezoneOffset: 0,
        ...body,
      });
      expect(res.status).toBe(201);
      return res.body as Thought;
    },
  };
}

const countRows = async () => (await svc.deps.db.select({ id: thoughts.id }).from(thoughts)).length;
const eventsFor = (thoughtId: number) =>
  svc.deps.db
    .select()
    .from(outbox)
    .where(sql`${outbox.payload}->>'thoughtId' = ${String(thoughtId)}`)
    .orderBy(outbox.id);

describe('thoughts', () => {
  it('saves once per client key: a retried or concurrent save answers the same thought', async () => {
    const me = as();
    const body = { content: 'Written on the train', clientKey: 'queued-7f3a9c1e-0001' };
    const first = await me.create(body);
    const again = await me.create(body);
    expect(again.id).toBe(first.id);
    const racing = await Promise.all(
      [1, 2, 3, 4].map(() => me.create({ ...body, clientKey: 'queued-race-0002' })),
    );
    expect(new Set(racing.map((t) => t.id)).size).toBe(1);
    const mine = await svc.deps.db.select().from(thoughts).where(eq(thoughts.userId, me.userId));
    expect(mine).toHaveLength(2);
    // One thought.changed per thought, however often it was sent.
    expect(await eventsFor(first.id)).toHaveLength(1);
    // The key is the user's own: another user's save with it is their own thought.
    const other = await as().create(body);
    expect(other.id).not.toBe(first.id);
    expect(await me.post('/api/thoughts', { content: 'x', clientKey: 'bad key!' })).toMatchObject({
      status: 400,
      body: { message: 'Invalid body: clientKey: clientKey must be 8 to 64 letters, digits, - or _' },
    });
  });

  it('saves a thought encrypted and lists it on its day', async () => {
    const me = as();
    const created = await me.create({
      content: 'Walked by the river, felt calm',
      category: 'personal',
      tags: [' calm ', 'walk', 'Calm'],
    });
    expect(created).toMatchObject({
      content: 'Walked by the river, felt calm',
      localDate: '2025-01-05',
      tags: ['calm', 'walk'],
      isVoice: false,
      hasAudio: false,
    });
    const [raw] = await svc.deps.db.select().from(thoughts).where(eq(thoughts.id, created.id));
    expect(raw!.contentEnc).not.toContain('river');
    expect(() => svc.deps.cipher.decrypt(raw!.contentEnc, contentContext(me.userId + 1))).toThrow();
    expect((await me.get('/api/thoughts?date=2025-01-05&t=123')).body).toEqual([created]);
    expect((await me.get('/api/thoughts?date=2025-01-06')).body).toEqual([]);
  });

  it("puts a thought on the user's own calendar day", async () => {
    const me = as();
    // 23:30 in Los Angeles (UTC-8 sends 480) is 07:30 UTC the next day.
    const la = await me.create({
      content: 'late in LA',
      clientDate: '2025-01-06T07:30:00.000Z',
      timezoneOffset: 480,
    });
    // 00:30 in Tokyo (UTC+9 sends -540) is 15:30 UTC the day before.
    const tokyo = await me.create({
      content: 'early in Tokyo',
      clientDate: '2025-01-05T15:30:00.000Z',
      timezoneOffset: -540,
    });
    expect(la.localDate).toBe('2025-01-05');
    expect(tokyo.localDate).toBe('2025-01-06');
    // The offset is kept, so an export can print the writer's own time.
    expect([la.timezoneOffset, tokyo.timezoneOffset]).toEqual([480, -540]);
    expect((await me.get('/api/thoughts?date=2025-01-05')).body.map((t: Thought) => t.content)).toEqual([
      'late in LA',
    ]);
  });

  it('returns ranges with both ends included, in either query form', async () => {
    const me = as();
    for (const day of ['2024-12-31', '2025-01-01', '2025-01-31', '2025-02-01']) {
      await me.create({ content: `on ${day}`, clientDate: `${day}T12:00:00.000Z` });
    }
    const a = await me.get('/api/thoughts/range?start=2025-01-01&end=2025-01-31');
    const b = await me.get('/api/thoughts/range?startDate=2025-01-01&endDate=2025-01-31&t=1');
    expect(a.body.map((t: Thought) => t.localDate)).toEqual(['2025-01-01', '2025-01-31']);
    expect(b.body).toEqual(a.body);
    expect((await me.get('/api/thoughts/range?start=2025-02-01&end=2025-01-01')).status).toBe(400);
    expect((await me.get('/api/thoughts/all')).body).toHaveLength(4);
  });

  it('streams every thought newest first, a batch at a time, ties in the same instant by id', async () => {
    const me = as();
    // 1,203 thoughts over 401 instants (three in each): more than two batches of 500, and ties
    // across a batch's end.
    const items = Array.from({ length: 1203 }, (_, n) => {
      const date = new Date(Date.UTC(2024, 0, 1) + Math.floor(n / 3) * 3_600_000);
      return {
        key: `all-entry-${n}`,
        content: `entry ${n}`,
        date: date.toISOString(),
        localDate: date.toISOString().slice(0, 10),
        category: 'personal',
        tags: [],
        isVoice: false,
      };
    });
    for (let i = 0; i < items.length; i += 500) {
      const res = await fetch(`${svc.url}/internal/import/thoughts`, {
        method: 'POST',
        headers: {
          ...internalHeaders(svc.config, me.userId, 'thoughts', 'portability'),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ items: items.slice(i, i + 500) }),
      });
      expect(res.status).toBe(200);
    }
    const res = await fetch(`${svc.url}/api/thoughts/all`, {
      headers: internalHeaders(svc.config, me.userId, 'thoughts'),
    });
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const all = (await res.json()) as Thought[];
    expect(all).toHaveLength(1203);
    const order = [...all].sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id);
    expect(all.map((t) => t.id)).toEqual(order.map((t) => t.id));
    expect(new Set(all.map((t) => t.content)).size).toBe(1203);
    expect(all[0]).toMatchObject({ content: expect.stringMatching(/^entry 120[0-2]$/), tags: [] });
  });

  it("never shows, changes or deletes another user's thought", async () => {
    const owner = as();
    const other = as();
    const mine = await owner.create({ content: 'private' });
    const theirs = await other.create({ content: 'theirs' });
    expect(
      (await owner.get(`/api/thoughts/ids?ids=${mine.id},${theirs.id}`)).body.map((t: Thought) => t.id),
    ).toEqual([mine.id]);
    expect(await other.patch(`/api/thoughts/${mine.id}`, { content: 'hacked' })).toMatchObject({
      status: 404,
      body: { message: 'Thought not found' },
    });
    expect((await other.delete(`/api/thoughts/${mine.id}`)).status).toBe(404);
    expect((await other.get('/api/thoughts/all')).body.map((t: Thought) => t.id)).toEqual([theirs.id]);
    expect((await owner.get('/api/thoughts/all')).body[0]).toMatchObject({ content: 'private' });
    expect(await eventsFor(mine.id)).toHaveLength(1);
  });

  it('updates only the fields sent, and deletes', async () => {
    const me = as();
    const t = await me.create({ content: 'draft', category: 'creative', tags: ['idea'] });
    const retagged = await me.patch(`/api/thoughts/${t.id}`, { tags: ['idea', 'poem'] });
    expect(retagged.body).toMatchObject({ content: 'draft', category: 'creative', tags: ['idea', 'poem'] });
    const edited = await me.patch(`/api/thoughts/${t.id}`, { content: 'final', category: 'professional' });
    expect(edited.body).toMatchObject({ content: 'final', category: 'professional', tags: ['idea', 'poem'] });
    expect(await me.delete(`/api/thoughts/${t.id}`)).toMatchObject({ status: 200, body: { success: true } });
    expect((await me.get('/api/thoughts/all')).body).toEqual([]);
    expect((await eventsFor(t.id)).map((e) => (e.payload as { change: string }).change)).toEqual([
      'created',
      'updated',
      'updated',
      'deleted',
    ]);
  });

  it('keeps the microphone marker of voice entries in storage only', async () => {
    const me = as();
    const voice = await me.create({ content: 'spoken words', isVoice: true });
    expect(voice.content).toBe('spoken words');
    const [raw] = await svc.deps.db.select().from(thoughts).where(eq(thoughts.id, voice.id));
    expect(svc.deps.cipher.decrypt(raw!.contentEnc, contentContext(me.userId))).toBe('🎤 spoken words');
    const edited = await me.patch(`/api/thoughts/${voice.id}`, { content: 'edited words' });
    expect(edited.body.content).toBe('edited words');
    const [after] = await svc.deps.db.select().from(thoughts).where(eq(thoughts.id, voice.id));
    expect(svc.deps.cipher.decrypt(after!.contentEnc, contentContext(me.userId))).toBe('🎤 edited words');
  });

  it('refuses bad input with 400 naming the problem, and writes nothing', async () => {
    const me = as();
    const before = await countRows();
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['GET', '/api/thoughts?date=2025-02-30', undefined, /date: Not a real calendar date/],
      ['GET', '/api/thoughts?date=2025-1-5', undefined, /date: Dates must use the yyyy-MM-dd format/],
      ['GET', '/api/thoughts/ids?ids=1,x', undefined, /ids/],
      [
        'POST',
        '/api/thoughts',
        { content: '   ' },
        /content: Please say or enter some text before submitting/,
      ],
      [
        'POST',
        '/api/thoughts',
        { content: 'x'.repeat(10_001) },
        /content: Thoughts are limited to 10000 characters/,
      ],
      ['POST', '/api/thoughts', { content: 'ok', category: 'secret' }, /category/],
      ['POST', '/api/thoughts', { content: 'ok', clientDate: 'yesterday' }, /clientDate/],
      [
        'POST',
        '/api/thoughts',
        { content: 'ok', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        /tags/,
      ],
      ['POST', '/api/thoughts', '{"content": ', /Malformed JSON body/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = method === 'GET' ? await me.get(path) : await me.post(path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    const t = await me.create({ content: 'keep me' });
    for (const patch of [{}, { content: '' }, { color: 'red' }, { category: 'secret' }]) {
      expect((await me.patch(`/api/thoughts/${t.id}`, patch)).status).toBe(400);
    }
    expect((await me.patch('/api/thoughts/abc', { content: 'x' })).status).toBe(400);
    expect(await countRows()).toBe(before + 1);
    expect(await eventsFor(t.id)).toHaveLength(1);
  });

  it('refuses audio over 10 MB', async () => {
    const me = as();
    const big = 'A'.repeat(14_000_000);
    const res = await me.post('/api/thoughts', {
      content: 'with audio',
      isVoice: true,
      audioData: `data:audio/webm;base64,${big}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Audio must be at most 10 MB/);
  });

  it('writes no thought when its event cannot be written', async () => {
    const me = as();
    const before = await countRows();
    await svc.deps.db.execute(sql`alter table thoughts.outbox rename to outbox_away`);
    try {
      expect((await me.post('/api/thoughts', { content: 'doomed' })).status).toBe(500);
    } finally {
      await svc.deps.db.execute(sql`alter table thoughts.outbox_away rename to outbox`);
    }
    expect(await countRows()).toBe(before);
  });

  it('classifies with the keyword rule when no LLM is configured', async () => {
    const me = as();
    const cases: Array<[string, string]> = [
      ['Hey Haven, what is on today?', 'chat'],
      ['can you draft a reply', 'chat'],
      ['please help me plan', 'chat'],
      ['?', 'chat'],
      ['I felt calm after the walk', 'thought'],
    ];
    for (const [text, type] of cases)
      expect((await me.post('/api/analyze-content', { text })).body).toEqual({ type });
    expect((await me.post('/api/analyze-content', { text: '' })).status).toBe(400);
  });
});

describe('internal reads', () => {
  const read = (headers: Record<string, string>) =>
    fetch(`${svc.url}/internal/thoughts/range?start=2025-01-01&end=2025-01-31`, { headers });

  it('answer the services the contract lists, for the user their token names', async () => {
    const me = as();
    const mine = await me.create({ content: 'for the insights worker' });
    await as().create({ content: 'someone else' });
    for (const caller of ['insights', 'assistant'] as const) {
      const res = await read(internalHeaders(svc.config, me.userId, 'thoughts', caller));
      expect(res.status).toBe(200);
      expect(((await res.json()) as Thought[]).map((t) => t.id)).toEqual([mine.id]);
    }
  });

  it('refuse the gateway and unlisted services with 403, and a token addressed elsewhere with 401', async () => {
    const userId = nextUser++;
    for (const caller of ['gateway', 'integrations'] as const) {
      const res = await read(internalHeaders(svc.config, userId, 'thoughts', caller));
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'forbidden' });
    }
    const elsewhere = await read(internalHeaders(svc.config, userId, 'insights', 'assistant'));
    expect(elsewhere.status).toBe(401);
    expect(await elsewhere.json()).toMatchObject({ code: 'internal_token_invalid' });
  });

  it('refuse a service calling a public route on a user’s behalf: only the gateway may', async () => {
    const res = await fetch(`${svc.url}/api/thoughts/all`, {
      headers: internalHeaders(svc.config, nextUser++, 'thoughts', 'insights'),
    });
    expect(res.status).toBe(403);
  });
});

describe('hostile paths', () => {
  it('answers broken %-encoding in a path parameter with a JSON 400, never a 500', async () => {
    const me = as();
    for (const path of ['/api/thoughts/%ff', '/api/thoughts/%E0%A4%A', '/api/thoughts/%']) {
      const res = await me.patch(path, { content: 'x' });
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request' });
    }
  });
});

describe('hostile text', () => {
  it('refuses a NUL in content or tags, on create and edit, with 400 and nothing written', async () => {
    const me = as();
    const before = await countRows();
    for (const body of [
      { content: 'a\u0000b', category: 'personal', isVoice: false },
      { content: 'fine', category: 'personal', isVoice: false, tags: ['ok', 'bad\u0000tag'] },
    ]) {
      const res = await me.post('/api/thoughts', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/NUL/);
    }
    expect(await countRows()).toBe(before);
    const kept = await me.create({ content: 'kept as it was' });
    expect((await me.patch(`/api/thoughts/${kept.id}`, { tags: ['\u0000'] })).status).toBe(400);
    expect((await me.patch(`/api/thoughts/${kept.id}`, { content: 'x\u0000' })).status).toBe(400);
    expect((await me.get(`/api/thoughts/ids?ids=${kept.id}`)).body[0]).toMatchObject({
      content: 'kept as it was',
      tags: [],
    });
  });

  it('refuses a client date whose local day falls outside the years 1 to 9999', async () => {
    const me = as();
    for (const [clientDate, timezoneOffset] of [
      ['0000-01-01T00:00:00Z', 0],
      ['9999-12-31T23:59:59Z', -840],
    ] as const) {
      const res = await me.post('/api/thoughts', { content: 'x', clientDate, timezoneOffset });
      expect(res.status, clientDate).toBe(400);
      expect(res.body.issues[0].path).toEqual(['clientDate']);
    }
    expect(
      (
        await me.post('/api/thoughts', {
          content: 'x',
          clientDate: '9999-12-31T10:00:00Z',
          timezoneOffset: 0,
        })
      ).status,
    ).toBe(201);
  });

  it('answers a thought of the first years with its own year, as it stores it', async () => {
    const me = as();
    for (const clientDate of ['0001-01-01T00:00:00.000Z', '0099-06-15T12:30:00.000Z']) {
      const made = await me.post('/api/thoughts', { content: 'long ago', clientDate, timezoneOffset: 0 });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ date: clientDate, localDate: clientDate.slice(0, 10) });
      const [read] = (await me.get(`/api/thoughts/ids?ids=${made.body.id}`)).body;
      expect(read).toMatchObject({ date: clientDate, localDate: clientDate.slice(0, 10) });
    }
  });
});
