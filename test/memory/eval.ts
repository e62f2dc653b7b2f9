import type { Thought } from '@haven/contracts/thoughts';
import { localReply } from '@haven/assistant/domain/local-reply';
import type { SearchRequest } from '@haven/assistant/domain/find-entries';
import type { ReplySources } from '@haven/assistant/domain/reply';
import type { Kind, Question } from './labels';

/*
 * The no-model assistant asked the Pepys questions: which entries (days) its reply cites, against
 * the expected ones. Recall: expected entries cited / expected; precision: cited that are expected /
 * cited (a reply citing nothing has precision 0 unless nothing was expected).
 */

type Stack = {
  get(name: 'thoughts'): { url: string };
  headers(target: 'thoughts', userId: number, caller?: 'assistant'): Record<string, string>;
};

export interface Scored {
  n: number;
  kind: Kind;
  half: Question['half'];
  recall: number;
  precision: number;
  cited: number;
  expected: number;
}

/** The assistant's sources for one user, reading the thoughts service's internal routes. */
export function thoughtSources(stack: Stack, userId: number): ReplySources {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(stack.get('thoughts').url + path, {
      headers: stack.headers('thoughts', userId, 'assistant'),
    });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const none = () => Promise.reject(new Error('not used by the evaluation'));
  return {
    search: (_, r: SearchRequest) =>
      get<Thought[]>(
        `/internal/thoughts/search?${new URLSearchParams(
          Object.entries({ ...r, limit: String(r.limit) }).filter(([, v]) => v !== undefined) as string[][],
        )}`,
      ),
    range: (_, start, end) => get<Thought[]>(`/internal/thoughts/range?start=${start}&end=${end}`),
    includeThoughtContent: async () => true,
    digest: none,
    waiting: none,
    invitations: none,
    connections: none,
    slackMentions: none,
    notionSearch: none,
    weeklyInsight: none,
    knownContacts: none,
  };
}

/** Asks each question as of `today` (noon UTC, offset 0) and scores the cited days. */
export async function askAll(
  sources: ReplySources,
  userId: number,
  questions: Question[],
  today: string,
  dayOf: Map<number, string>,
): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const q of questions) {
    const reply = await localReply(sources, {
      userId,
      question: q.q,
      history: [{ role: 'user', content: q.q }],
      timezoneOffset: 0,
      at: new Date(`${today}T12:00:00Z`),
    });
    const ids = (reply.metadata.references as number[] | undefined) ?? [];
    const cited = new Set(ids.map((id) => dayOf.get(id)!));
    const expected = new Set(q.expected);
    const hit = [...cited].filter((d) => expected.has(d)).length;
    out.push({
      n: q.n,
      kind: q.kind,
      half: q.half,
      recall: expected.size ? hit / expected.size : 1,
      precision: cited.size ? hit / cited.size : expected.size ? 0 : 1,
      cited: cited.size,
      expected: expected.size,
    });
  }
  return out;
}

/** Mean recall and precision per kind and half. */
export function summarise(scored: Scored[]) {
  const rows: Array<{ kind: Kind; half: string; questions: number; recall: number; precision: number }> = [];
  for (const kind of ['word', 'date', 'meaning'] as Kind[])
    for (const half of ['dev', 'held-out'] as const) {
      const of = scored.filter((s) => s.kind === kind && s.half === half);
      if (!of.length) continue;
      const mean = (f: (s: Scored) => number) => of.reduce((a, s) => a + f(s), 0) / of.length;
      rows.push({
        kind,
        half,
        questions: of.length,
        recall: mean((s) => s.recall),
        precision: mean((s) => s.precision),
      });
    }
  return rows;
}

export const table = (rows: ReturnType<typeof summarise>) =>
  [
    'kind     half      n   recall  precision',
    ...rows.map(
      (r) =>
        `${r.kind.padEnd(8)} ${r.half.padEnd(9)} ${String(r.questions).padStart(2)}  ${(r.recall * 100).toFixed(1).padStart(5)}%  ${(r.precision * 100).toFixed(1).padStart(6)}%`,
    ),
  ].join('\n');
