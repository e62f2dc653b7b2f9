import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, until } from '@haven/kit/testing';
import { periodChanges } from '../src/db/schema';
import { insightsService } from '../src/service';

let svc: Awaited<ReturnType<typeof startTestService>>;
beforeAll(async () => {
  svc = await startTestService(insightsService);
});
afterAll(async () => svc?.stop());

const changes = async () =>
  (await svc.deps.db.select().from(periodChanges)).map((r) => ({
    key: `${r.userId} ${r.range} ${r.periodStart}`,
    at: r.changedAt.getTime(),
  }));

describe('thought.changed', () => {
  it('marks the day, its Monday week and its month stale for that user, and a later change moves them on', async () => {
    await svc.deps.queues.add('thought.changed', {
      eventId: 'e1',
      userId: 5,
      thoughtId: 9,
      localDate: '2025-03-09',
      change: 'created',
      changedAt: new Date(Date.now() - 1000).toISOString(),
    });
    await until(async () => (await changes()).length === 3, 15_000, 'three stale periods');
    const first = await changes();
    expect(first.map((c) => c.key).sort()).toEqual([
      '5 day 2025-03-09',
      '5 month 2025-03-01',
      '5 week 2025-03-03',
    ]);

    await svc.deps.queues.add('thought.changed', {
      eventId: 'e2',
      userId: 5,
      thoughtId: 9,
      localDate: '2025-03-09',
      change: 'updated',
      changedAt: new Date().toISOString(),
    });
    await until(
      async () => (await changes()).every((c) => c.at > first.find((f) => f.key === c.key)!.at),
      15_000,
      'periods marked again',
    );
    expect(await changes()).toHaveLength(3);
  });
});
