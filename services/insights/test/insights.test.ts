import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insights } from '../src/db/schema';
import { createInsights } from '../src/domain/insights';
import { startInsightsStack } from './harness';

let stack: Awaited<ReturnType<typeof startInsightsStack>>;
let nextUser = 1000;
beforeAll(async () => {
  stack = await startInsightsStack();
});
afterAll(async () => stack?.stop());

const storedRows = async (userId: number) =>
  (await stack.get('insights').deps.db.select().from(insights)).filter((r) => r.userId === userId);

describe('insights without a model', () => {
  it('answers 202 while generating, then a basic insight citing only that day’s thoughts', async () => {
    const me = stack.as(nextUser++);
    const a = await me.write(
      'Long day at work. The launch plan is slipping and I feel anxious.',
      '2025-03-05',
    );
    const b = await me.write('I need to email Sarah the summary of the launch plan tomorrow.', '2025-03-05');
    await me.write('Something from another day entirely.', '2025-03-06');
    const first = await me.get('2025-03-05');
    expect(first).toEqual({ status: 202, body: { status: 'pending' } });
    const { status, body } = await me.insight('2025-03-05');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      range: 'day',
      periodStart: '2025-03-05',
      periodEnd: '2025-03-05',
      engine: 'basic',
      status: 'ready',
    });
    const cited = [
      ...body.summaryReferences,
      ...body.themes.flatMap((t) => t.references),
      ...body.suggestions.flatMap((s) => s.references),
    ];
    expect(cited.length).toBeGreaterThan(0);
    expect(new Set(cited)).toEqual(new Set(cited.filter((id) => id === a.id || id === b.id)));
    expect(body.suggestions.find((s) => /email sarah/i.test(s.title))?.prefill?.email).toMatchObject({
      name: 'Sarah',
    });
    // Stored encrypted: nothing of the text in the row.
    const [row] = await storedRows(me.userId);
    expect(JSON.stringify(row)).not.toMatch(/launch|Sarah|anxious/);
  });

  it('answers 404 for a period without thoughts, and for another user’s period', async () => {
    const me = stack.as(nextUser++);
    const stranger = stack.as(nextUser++);
    await me.write('A quiet walk by the sea.', '2025-04-01');
    expect((await me.insight('2025-04-01')).status).toBe(200);
    const theirs = await stranger.get('2025-04-01');
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({
      message: 'Not enough thoughts recorded to generate meaningful insights.',
    });
    expect((await me.get('2025-04-02')).status).toBe(404);
  });

  it('refuses a bad date or range with 400', async () => {
    const me = stack.as(nextUser++);
    for (const [date, range] of [
      ['2025-02-30', 'day'],
      ['yesterday', 'day'],
      ['2025-03-01', 'year'],
    ]) {
      const res = await me.get(date!, range);
      expect(res.status, `${date} ${range}`).toBe(400);
    }
  });

  it('never queues twice while a generation runs, however often it is polled', async () => {
    const me = stack.as(nextUser++);
    await me.write('Polled many times.', '2025-05-01');
    const answers = await Promise.all(Array.from({ length: 8 }, () => me.get('2025-05-01')));
    expect(answers.every((a) => a.status === 202 || a.status === 200)).toBe(true);
    await me.insight('2025-05-01');
    const rows = await storedRows(me.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.request).toBe(1);
  });

  it('regenerates exactly the day, week and month a change touches, and never serves one from before it', async () => {
    const me = stack.as(nextUser++);
    const first = await me.write('Planted tomatoes in the garden.', '2025-06-11');
    await me.write('Read a book about bees.', '2025-06-02');
    const before = {
      day: (await me.insight('2025-06-11')).body,
      week: (await me.insight('2025-06-11', 'week')).body,
      month: (await me.insight('2025-06-11', 'month')).body,
      otherDay: (await me.insight('2025-06-02')).body,
    };
    expect(before.week.periodStart).toBe('2025-06-09');

    const added = await me.write('Watered the tomatoes and saw the first flower.', '2025-06-11');
    for (const range of ['day', 'week', 'month']) {
      const next = await me.get('2025-06-11', range);
      expect(next.status, `${range} after a create`).toBe(202);
      const fresh = (await me.insight('2025-06-11', range)).body;
      expect(fresh.generatedAt > before[range as 'day'].generatedAt).toBe(true);
    }
    const dayAfter = (await me.insight('2025-06-11')).body;
    expect(dayAfter.summaryReferences).toContain(added.id);
    // Untouched: served as stored, not regenerated.
    const other = await me.get('2025-06-02');
    expect(other).toMatchObject({ status: 200, body: { generatedAt: before.otherDay.generatedAt } });

    await me.edit(first.id, { content: 'Planted peppers, not tomatoes.' });
    expect((await me.get('2025-06-11')).status).toBe(202);
    expect((await me.insight('2025-06-11')).body.summary).toContain('peppers');

    await me.remove(added.id);
    expect((await me.get('2025-06-11', 'week')).status).toBe(202);
    const week = (await me.insight('2025-06-11', 'week')).body;
    expect(week.summaryReferences).not.toContain(added.id);
    expect(week.mood).toHaveLength(7);
  });

  it('forgets a stored insight on delete, so the next get generates anew (Refresh Insights)', async () => {
    const me = stack.as(nextUser++);
    await me.write('Refreshing thoughts.', '2025-07-01');
    const old = (await me.insight('2025-07-01')).body;
    expect(await me.forget('2025-07-01')).toMatchObject({ status: 200, body: { success: true } });
    expect((await me.get('2025-07-01')).status).toBe(202);
    const renewed = (await me.insight('2025-07-01')).body;
    expect(renewed.generatedAt > old.generatedAt).toBe(true);
    expect((await storedRows(me.userId))[0]!.request).toBe(2);
  });

  it('stores a failed generation as failed, shown with a retry rather than a spinner', async () => {
    const me = stack.as(nextUser++);
    await me.write('This generation will fail.', '2025-08-01');
    const domain = stack.get('insights');
    // Ask for it, then fail it as the worker does after its last attempt.
    await domain.workers?.close();
    expect((await me.get('2025-08-01')).status).toBe(202);
    const [row] = await storedRows(me.userId);
    const failing = createInsights({
      db: domain.deps.db,
      uow: domain.deps.uow,
      cipher: domain.deps.cipher,
      llm: null,
      log: domain.deps.log,
      sources: {
        stats: async () => ({ count: 1, lastChangedAt: null }),
        thoughts: async () => {
          throw new Error('thoughts service down');
        },
        includeThoughtContent: async () => true,
      },
    });
    const job = {
      userId: me.userId,
      range: 'day' as const,
      periodStart: '2025-08-01',
      request: row!.request,
    };
    await expect(failing.generate(job)).rejects.toThrow('thoughts service down');
    await failing.failed(job);
    const answer = await me.get('2025-08-01');
    expect(answer).toMatchObject({ status: 200, body: { status: 'failed', summary: '' } });
  });
});
