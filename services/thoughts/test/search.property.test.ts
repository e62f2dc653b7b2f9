import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchPage, Thought } from '@haven/contracts/thoughts';
import { startTestServices } from '@haven/kit/testing';
import { foldText } from '../src/domain/search/fold';
import { thoughtsService } from '../src/service';

let stack: Awaited<ReturnType<typeof startTestServices>>;
let nextUser = 9000;

beforeAll(async () => {
  stack = await startTestServices([thoughtsService]);
});
afterAll(async () => stack?.stop());

/** Letters with and without accents (composed and not), curly quotes, emoji, odd cases. */
const PIECES = [
  'a',
  'b',
  'e',
  'o',
  'r',
  't',
  'n',
  's',
  'A',
  'T',
  'é',
  'É',
  'e\u0301',
  'ö',
  'ß',
  'İ',
  'ñ',
  '’',
  '‘',
  "'",
  '“',
  '”',
  '"',
  '😀',
  '🎤',
  '1',
  '7',
  ' ',
  ' ',
  '-',
  '.',
  'Ω',
  'ω',
  'ﬁ',
];
const piece = fc.constantFrom(...PIECES);
const text = (min: number, max: number) =>
  fc.array(piece, { minLength: min, maxLength: max }).map((p) => p.join(''));

/** The spec's rule, on the thoughts as the service answers them. */
const expected = (thoughts: Thought[], q: string) => {
  const needle = foldText(q.trim());
  return thoughts
    .filter(
      (t) => foldText(t.content).includes(needle) || t.tags.some((tag) => foldText(tag).includes(needle)),
    )
    .map((t) => t.id)
    .sort((a, b) => a - b);
};

/** Every id the search returns, page after page (small pages, so cursors are used). */
async function searchAll(userId: number, q: string): Promise<{ ids: number[]; totals: number[] }> {
  const ids: number[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ q, limit: '3', ...(cursor ? { cursor } : {}) });
    const res = await stack.call('thoughts', userId, 'GET', `/api/thoughts/search?${params}`);
    expect(res.status).toBe(200);
    const page = res.body as SearchPage;
    ids.push(...page.hits.map((h) => h.thought.id));
    totals.push(page.total);
    cursor = page.nextCursor;
  } while (cursor);
  return { ids, totals };
}

describe('search finds exactly what a scan of the decrypted text finds', () => {
  it('for random thoughts and queries (substrings, random strings, 1–3 characters)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ content: text(1, 40), tags: fc.array(text(1, 8), { maxLength: 2 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(fc.oneof(text(1, 3), text(1, 8), fc.tuple(fc.nat(), fc.nat(), fc.nat(8))), {
          minLength: 1,
          maxLength: 5,
        }),
        async (items, queries) => {
          const userId = nextUser++;
          const thoughts: Thought[] = [];
          for (const item of items) {
            const res = await stack.call('thoughts', userId, 'POST', '/api/thoughts', {
              content: `x${item.content}`,
              tags: item.tags.map((t) => t.trim()).filter((t) => t.length > 0),
            });
            expect(res.status).toBe(201);
            thoughts.push(res.body as Thought);
          }
          for (const query of queries) {
            let q: string;
            if (typeof query === 'string') q = query;
            else {
              // A substring of one of the thoughts as stored (content or a tag).
              const t = thoughts[query[0] % thoughts.length]!;
              const source = [t.content, ...t.tags][query[1] % (1 + t.tags.length)]!;
              const cps = Array.from(source);
              const start = query[1] % cps.length;
              q = cps.slice(start, start + 1 + query[2]).join('');
            }
            if (q.trim().length === 0) continue;
            const { ids, totals } = await searchAll(userId, q);
            expect(new Set(ids).size).toBe(ids.length);
            const want = expected(thoughts, q);
            expect(
              [...ids].sort((a, b) => a - b),
              `q=${JSON.stringify(q)}`,
            ).toEqual(want);
            expect(totals[0]).toBe(want.length);
          }
        },
      ),
      { numRuns: 40, seed: Number(process.env.FUZZ_SEED ?? 33) },
    );
  }, 60_000);
});
