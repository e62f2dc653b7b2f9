import { describe, expect, it } from 'vitest';
import type { Thought } from '@haven/contracts/thoughts';
import { contentWords, excerptOf, findEntries, type SearchRequest } from './find-entries';

let nextId = 1;
const thought = (content: string, localDate = '2026-11-26'): Thought =>
  ({
    id: nextId++,
    content,
    localDate,
    date: `${localDate}T10:00:00.000Z`,
    tags: [],
    category: 'personal',
    isVoice: false,
  }) as unknown as Thought;

/** A search that answers every thought holding one of the words as a substring (as a crude index would). */
const searchOver =
  (thoughts: Thought[], asked: SearchRequest[] = []) =>
  async (_: number, r: SearchRequest) => {
    asked.push(r);
    const words = r.q.toLowerCase().split(/\s+/).filter(Boolean);
    return thoughts
      .filter((t) => !r.start || (t.localDate >= r.start && t.localDate <= r.end!))
      .filter((t) => words.length === 0 || words.some((w) => t.content.toLowerCase().includes(w)))
      .slice(0, r.limit);
  };

describe('contentWords', () => {
  it('leaves out question and stop words, and reads curly apostrophes as straight ones', () => {
    expect(contentWords('When did I see Hamlet?')).toEqual(['hamlet']);
    expect(contentWords('What did I write about the plague?')).toEqual(['plague']);
    expect(contentWords('What did I write about Tom’s bike?')).toEqual(
      contentWords("What did I write about Tom's bike?"),
    );
    expect(contentWords("What did I write about Tom's bike?")).toEqual(['tom', 'bike']);
  });
});

describe('excerptOf', () => {
  it('keeps a short entry whole and cuts a long one around its word, whole words only', () => {
    expect(excerptOf('Lunch with Tom.', ['tom'])).toBe('Lunch with Tom.');
    const long = `${'Many words before. '.repeat(40)}Then Hamlet at the Opera. ${'And more after it. '.repeat(40)}`;
    const cut = excerptOf(long, ['hamlet']);
    expect(cut).toContain('Hamlet at the Opera');
    expect(cut.length).toBeLessThanOrEqual(202);
    expect(cut).toMatch(/^….*…$/);
    // Whole words at both ends: the inner text starts after a space and ends before one.
    const inner = cut.slice(1, -1);
    const at = long.indexOf(inner);
    expect(at).toBeGreaterThan(0);
    expect(long[at - 1]).toBe(' ');
    expect(long[at + inner.length]).toBe(' ');
  });
});

describe('findEntries', () => {
  it('cites whole words only: “Tom” is not “tomorrow”', async () => {
    const tom = thought('Lunch with Tom, moving to Leeds.');
    const tomorrow = thought('Call mum tomorrow.');
    const found = await findEntries(searchOver([tom, tomorrow]), 1, ['tom'], null);
    expect(found.map((e) => e.thought.id)).toEqual([tom.id]);
  });

  it('cites entries holding the rarer word, not those holding only a common one', async () => {
    const common = Array.from({ length: 40 }, () => thought('We had a good play at cards.'));
    const theorbo = [thought('Played upon my theorbo.'), thought('Mended the theorbo and play on it.')];
    const found = await findEntries(searchOver([...common, ...theorbo]), 1, ['play', 'theorbo'], null);
    expect(found.map((e) => e.thought.id).sort()).toEqual(theorbo.map((t) => t.id).sort());
  });

  it('keeps to the range, and for a period alone lists its entries oldest first', async () => {
    const before = thought('Tom came.', '2026-11-20');
    const a = thought('Tom again.', '2026-11-25');
    const b = thought('Quiet day.', '2026-11-24');
    const asked: SearchRequest[] = [];
    const range = { start: '2026-11-23', end: '2026-11-29' };
    expect(
      (await findEntries(searchOver([before, a, b], asked), 1, ['tom'], range)).map((e) => e.thought.id),
    ).toEqual([a.id]);
    expect(asked[0]).toMatchObject({ q: 'tom', match: 'words', start: range.start, end: range.end });
    expect((await findEntries(searchOver([before, a, b]), 1, [], range)).map((e) => e.thought.id)).toEqual([
      b.id,
      a.id,
    ]);
  });
});
