import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Thought } from '@haven/contracts/thoughts';
import { startTestServices } from '@haven/kit/testing';
import { thoughtsService } from '@haven/thoughts/service';
import { askAll, summarise, table, thoughtSources, type Scored } from './eval';
import type { Question } from './labels';
import { importItems, readPepys } from './pepys';

/*
 * Samuel Pepys' diary imported through the thoughts service's import route (the items the
 * portability service sends it after reading a zip of daily Markdown notes; the full zip import is
 * bench/memory.bench.ts's, too slow for a test), then the no-model assistant asked the labelled questions (pepys-questions.json): its cited
 * entries must reach recall ≥ 90% and precision ≥ 70% per kind (word, date) on both halves. By
 * meaning has no target without a model; its figures are printed.
 */

const DIARY = join(import.meta.dirname, '../../../shared/corpora/journal/pepys/text');
const present = existsSync(DIARY);
if (!present) console.warn(`pepys.test.ts skipped: the diary is not at ${DIARY} (../shared/corpora/journal)`);

const labels = JSON.parse(readFileSync(join(import.meta.dirname, 'pepys-questions.json'), 'utf8')) as {
  today: string;
  entries: number;
  questions: Question[];
};

describe.skipIf(!present)('the assistant on a real diary (Pepys), no model', () => {
  let stack: Awaited<ReturnType<typeof startTestServices>>;
  let scored: Scored[];

  beforeAll(async () => {
    stack = await startTestServices([thoughtsService]);
    const userId = 7001;
    const entries = readPepys(DIARY);
    expect(entries).toHaveLength(labels.entries);
    const started = Date.now();
    const items = importItems(entries);
    for (let i = 0; i < items.length; i += 250) {
      const res = await fetch(`${stack.get('thoughts').url}/internal/import/thoughts`, {
        method: 'POST',
        headers: { ...stack.headers('thoughts', userId, 'portability'), 'content-type': 'application/json' },
        body: JSON.stringify({ items: items.slice(i, i + 250) }),
      });
      expect(res.status).toBe(200);
    }
    const all = (await stack.call('thoughts', userId, 'GET', '/api/thoughts/all')).body as Thought[];
    const days = new Set(all.map((t) => t.localDate));
    expect(days.size).toBe(3413);
    console.log(`imported ${all.length} thoughts on ${days.size} days in ${Date.now() - started} ms`);
    const dayOf = new Map(all.map((t) => [t.id, t.localDate]));
    scored = await askAll(thoughtSources(stack, userId), userId, labels.questions, labels.today, dayOf);
    console.log(table(summarise(scored)));
    for (const s of scored)
      if (s.recall < 1 || s.precision < 1)
        console.log(
          `#${s.n} ${s.kind} ${s.half}: recall ${s.recall.toFixed(2)} precision ${s.precision.toFixed(2)} (cited ${s.cited}, expected ${s.expected})`,
        );
  }, 110_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it.each(['word', 'date'] as const)('cites the right entries for questions by %s on both halves', (kind) => {
    for (const row of summarise(scored).filter((r) => r.kind === kind)) {
      expect(row.recall, `${kind} ${row.half} recall`).toBeGreaterThanOrEqual(0.9);
      expect(row.precision, `${kind} ${row.half} precision`).toBeGreaterThanOrEqual(0.7);
    }
  });
});
