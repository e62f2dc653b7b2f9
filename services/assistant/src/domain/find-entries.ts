import { eng as stopwords } from 'stopword';
import type { Thought } from '@haven/contracts/thoughts';
import type { DayRange } from './question-dates';

/*
 * What the assistant looks up for a question, with or without a model: the thoughts holding the
 * question's words (the search index ranks them), within the period it names if any, scored here
 * by which of the words each holds as a whole word, and cut where the scores fall far below the
 * best. Each comes with a short excerpt around its best word, never the whole entry.
 */

/** How the assistant asks the thoughts service (GET /internal/thoughts/search). */
export interface SearchRequest {
  q: string;
  limit: number;
  match?: 'phrase' | 'words';
  start?: string;
  end?: string;
}

export type SearchThoughts = (userId: number, request: SearchRequest) => Promise<Thought[]>;

/** An entry found for a question, with what to show of it. */
export interface FoundEntry {
  thought: Thought;
  /** A short excerpt around the best matched word (or the entry's start when found by date). */
  excerpt: string;
  score: number;
}

/** How many to cite, and how far below the best a cited entry may score (chosen on the dev half). */
export const CITE = {
  /** The most cited for a question by words. */
  words: 30,
  /** The most cited for a period alone: a month's days. */
  period: 31,
  /**
   * A cited entry scores at least this share of the best one: the middle of the dev half's plateau
   * (0.5 and 0.6 both cite every expected entry and nothing else there; 0.4 cites 6% too many, 0.7
   * misses 18%; `npx tsx bench/memory.bench.ts` prints the sweep).
   */
  cutOff: 0.55,
  /** The excerpt's length, in characters. */
  excerpt: 200,
};

/** Asked of the index per word (its hits count how rare the word is). */
const PER_WORD = 100;

/** Words that ask rather than say what to look for. */
const QUESTION_WORDS = new Set([
  'write',
  'wrote',
  'written',
  'writing',
  'thought',
  'thoughts',
  'think',
  'happen',
  'happened',
  'happening',
  'happens',
  'mention',
  'mentioned',
  'mentions',
  'tell',
  'remember',
  'recall',
  'anything',
  'something',
  'everything',
  'entry',
  'entries',
  'diary',
  'journal',
  'note',
  'notes',
  'see',
  'saw',
  'seen',
  'go',
  'went',
  'gone',
  'do',
  'did',
  'done',
  'does',
  'doing',
  'get',
  'got',
  'last',
  'time',
  'times',
  'day',
  'days',
  'say',
  'ever',
  'please',
  'find',
  'show',
  'list',
  'which',
  'when',
  'what',
  'where',
  'who',
  'whom',
  'why',
  'how',
]);

/** Lower case, accents off, curly apostrophes straight. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201B\u2032]/g, "'");

/** A word's forms as one: no possessive, no plural. */
const stem = (word: string) => {
  const w = word.replace(/'s?$/, '');
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(?:ch|sh|x|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) return w.slice(0, -1);
  return w;
};

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu;

/** The words of a question worth looking for: not stop words, not question words, each once. */
export function contentWords(question: string): string[] {
  const words = (fold(question).match(WORD) ?? [])
    .map((w) => w.replace(/'s$/, ''))
    .filter((w) => w.length >= 2 && !stopwords.includes(w) && !QUESTION_WORDS.has(w) && !/^\d{1,2}$/.test(w));
  return [...new Set(words)].slice(0, 6);
}

/** How often each of `stems` is in `text`, as whole words (in any of the forms `stem` joins). */
function countsIn(text: string, stems: string[]): number[] {
  const counts = stems.map(() => 0);
  for (const word of fold(text).match(WORD) ?? []) {
    const s = stem(word);
    const i = stems.indexOf(s);
    if (i >= 0) counts[i]!++;
  }
  return counts;
}

/** About `size` characters of `text` around the first whole word of `stems` (its start when none). */
export function excerptOf(text: string, stems: string[], size = CITE.excerpt): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= size) return flat;
  let at = 0;
  if (stems.length > 0) {
    const folded = fold(flat);
    for (const m of folded.matchAll(WORD)) {
      if (stems.includes(stem(m[0]))) {
        at = m.index;
        break;
      }
    }
  }
  let start = Math.max(0, at - Math.floor(size / 3));
  const end = Math.min(flat.length, start + size);
  start = Math.max(0, end - size);
  // Whole words at both ends.
  const from = start > 0 ? flat.indexOf(' ', start) + 1 || start : 0;
  const lastSpace = flat.lastIndexOf(' ', end);
  const to = end < flat.length && lastSpace > from ? lastSpace : end;
  return `${from > 0 ? '…' : ''}${flat.slice(from, to)}${to < flat.length ? '…' : ''}`;
}

const inRange = (t: Thought, range: DayRange | null) =>
  !range || (t.localDate >= range.start && t.localDate <= range.end);

/**
 * The entries to cite for `words` within `range` (either may be empty, not both): best first, at
 * most CITE.words, none scoring below CITE.cutOff of the best; for a period alone, its entries
 * oldest first, at most CITE.period.
 */
export async function findEntries(
  search: SearchThoughts,
  userId: number,
  words: string[],
  range: DayRange | null,
  cite: { max?: number; cutOff?: number } = {},
): Promise<FoundEntry[]> {
  const period = range ? { start: range.start, end: range.end } : {};
  if (words.length === 0) {
    if (!range) return [];
    const max = cite.max ?? CITE.period;
    const found = (await search(userId, { q: '', limit: 100, ...period })).filter((t) => inRange(t, range));
    return found
      .sort((a, b) => a.date.localeCompare(b.date))
      .slice(0, max)
      .map((thought) => ({ thought, excerpt: excerptOf(thought.content, []), score: 1 }));
  }
  const stems = words.map(stem);
  // The index's ranking of all the words, and each word's own hits (how rare it is).
  const asked = await Promise.all([
    search(userId, { q: words.join(' '), limit: 100, match: 'words', ...period }),
    ...(words.length > 1
      ? words.map((w) => search(userId, { q: w, limit: PER_WORD, match: 'words', ...period }))
      : []),
  ]);
  const rank = new Map<number, number>();
  const byId = new Map<number, Thought>();
  asked.forEach((list) =>
    list.forEach((t, i) => {
      byId.set(t.id, t);
      rank.set(t.id, Math.min(rank.get(t.id) ?? Infinity, i));
    }),
  );
  const candidates = [...byId.values()].filter((t) => inRange(t, range));
  const counts = new Map(candidates.map((t) => [t.id, countsIn(`${t.content}\n${t.tags.join(' ')}`, stems)]));
  // A word's weight: rarer words count more (its hits among the candidates stand for its frequency).
  const hits = stems.map((_, i) => candidates.filter((t) => counts.get(t.id)![i]! > 0).length);
  const weight = hits.map((n) => Math.log(1 + 1000 / Math.max(1, n)));
  const scored = candidates
    .map((thought) => {
      const c = counts.get(thought.id)!;
      // Which words it holds decides whether it is cited; how often, only its place.
      const score = c.reduce((sum, n, i) => sum + (n > 0 ? weight[i]! : 0), 0);
      const often = c.reduce((sum, n, i) => sum + (n > 0 ? weight[i]! * Math.log(n) : 0), 0);
      return { thought, score, often };
    })
    .filter((e) => e.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.often - a.often ||
        rank.get(a.thought.id)! - rank.get(b.thought.id)! ||
        b.thought.date.localeCompare(a.thought.date),
    );
  const best = scored[0]?.score ?? 0;
  const cutOff = cite.cutOff ?? CITE.cutOff;
  return scored
    .filter((e) => e.score >= best * cutOff)
    .slice(0, cite.max ?? CITE.words)
    .map((e) => {
      // The excerpt starts at the rarest word the entry holds.
      const c = counts.get(e.thought.id)!;
      const order = stems
        .map((s, i) => ({ s, w: c[i]! > 0 ? weight[i]! : -1 }))
        .sort((a, b) => b.w - a.w)
        .filter((x) => x.w > 0)
        .map((x) => x.s);
      return { thought: e.thought, score: e.score, excerpt: excerptOf(e.thought.content, order.slice(0, 1)) };
    });
}
