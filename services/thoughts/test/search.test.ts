import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchPage, Thought } from '@haven/contracts/thoughts';
import { internalHeaders, startTestServices } from '@haven/kit/testing';
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
});
