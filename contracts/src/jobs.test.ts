import { describe, expect, it } from 'vitest';
import { JOBS, QUEUE_NAMES, jobIdFor, queuesConsumedBy, type JobPayload, type QueueName } from './jobs';

const samples: { [Q in QueueName]: [JobPayload<Q>, JobPayload<Q>] } = {
  'mail.send': [{ mailId: 'm_01' }, { mailId: 'm_02' }],
  'thought.changed': [
    {
      eventId: '981',
      userId: 12,
      thoughtId: 345,
      localDate: '2025-01-05',
      change: 'created',
      changedAt: '2025-01-05T10:00:00.000Z',
    },
    {
      eventId: '982',
      userId: 12,
      thoughtId: 345,
      localDate: '2025-01-05',
      change: 'updated',
      changedAt: '2025-01-05T10:00:01.000Z',
    },
  ],
  'thought.transcribe': [
    { userId: 12, thoughtId: 345 },
    { userId: 12, thoughtId: 346 },
  ],
  'thought.embed': [
    { eventId: '981', userId: 12, thoughtId: 345, change: 'created' },
    { eventId: '982', userId: 12, thoughtId: 345, change: 'updated' },
  ],
  'insights.generate': [
    { userId: 12, range: 'week', periodStart: '2025-01-06', request: 1 },
    { userId: 12, range: 'week', periodStart: '2025-01-06', request: 2 },
  ],
  'assistant.reply': [
    { userId: 12, conversationId: 7, messageId: 70 },
    { userId: 12, conversationId: 7, messageId: 71 },
  ],
  'accounts.sync': [
    { integrationId: 4, request: 1 },
    { integrationId: 4, request: 2 },
  ],
  'mail.sync': [
    { integrationId: 4, request: 1 },
    { integrationId: 4, request: 2 },
  ],
  'user.delete.thoughts': [{ userId: 1 }, { userId: 2 }],
  'user.delete.insights': [{ userId: 1 }, { userId: 2 }],
  'user.delete.assistant': [{ userId: 1 }, { userId: 2 }],
  'user.delete.integrations': [{ userId: 1 }, { userId: 2 }],
  'user.deletion.report': [
    { userId: 1, service: 'thoughts' },
    { userId: 1, service: 'insights' },
  ],
  'user.delete.portability': [{ userId: 1 }, { userId: 2 }],
  'data.export': [
    { userId: 1, transferId: 'abcdefgh1', step: 1 },
    { userId: 1, transferId: 'abcdefgh1', step: 2 },
  ],
  'data.import': [
    { userId: 1, transferId: 'abcdefgh1', step: 1 },
    { userId: 1, transferId: 'abcdefgh1', step: 2 },
  ],
  'integrations.refresh': [
    { integrationId: 4, expiresAt: 1_795_000_000 },
    { integrationId: 4, expiresAt: 1_795_003_600 },
  ],
  'backup.run': [{ at: '2026-05-05T03:00:00.000Z' }, { at: '2026-05-06T03:00:00.000Z' }],
};

describe('JOBS', () => {
  it('is keyed by its own queue names', () => {
    for (const name of QUEUE_NAMES) expect(JOBS[name].queue).toBe(name);
    expect(QUEUE_NAMES.sort()).toEqual(Object.keys(samples).sort());
  });

  it.each(QUEUE_NAMES)(
    '%s: payloads validate, ids have no ":" and are deterministic and distinct',
    (name) => {
      const [a, b] = samples[name];
      expect(JOBS[name].payload.parse(a)).toEqual(a);
      const id = jobIdFor(name, a);
      expect(id).not.toContain(':');
      expect(id).toBe(jobIdFor(name, JOBS[name].payload.parse(structuredClone(a))));
      expect(jobIdFor(name, b)).not.toBe(id);
    },
  );

  it('gives each queue a retry policy of its own kind of work', () => {
    for (const name of QUEUE_NAMES) {
      const { attempts, firstDelay } = JOBS[name].retry;
      expect(attempts, name).toBeGreaterThanOrEqual(3);
      expect(firstDelay, name).toBeGreaterThan(0);
    }
    // A person waiting on 'Thinking...' hears of a failure within seconds; a deletion keeps trying.
    expect(JOBS['assistant.reply'].retry).toEqual({ attempts: 4, firstDelay: 1 });
    expect(JOBS['user.delete.thoughts'].retry.attempts).toBeGreaterThan(
      JOBS['thought.changed'].retry.attempts,
    );
    expect(JOBS['accounts.sync'].retry).toEqual(JOBS['mail.sync'].retry);
  });

  it('names the service consuming each queue', () => {
    expect(JOBS['thought.changed'].consumer).toBe('insights');
    expect([...queuesConsumedBy('thoughts')].sort()).toEqual([
      'thought.embed',
      'thought.transcribe',
      'user.delete.thoughts',
    ]);
    expect([...queuesConsumedBy('auth')].sort()).toEqual(['mail.send', 'user.deletion.report']);
    expect([...queuesConsumedBy('portability')].sort()).toEqual([
      'backup.run',
      'data.export',
      'data.import',
      'user.delete.portability',
    ]);
  });

  it('names thought.changed jobs by user, thought and outbox event', () => {
    expect(jobIdFor('thought.changed', samples['thought.changed'][0])).toBe('thought-changed.12.345.981');
  });

  it('refuses ids that could break a job id, and content in payloads', () => {
    expect(JOBS['mail.send'].payload.safeParse({ mailId: 'a:b' }).success).toBe(false);
    expect(
      JOBS['thought.changed'].payload.safeParse({
        eventId: 'x.y',
        userId: 1,
        thoughtId: 1,
        localDate: '2025-01-05',
        change: 'created',
        changedAt: '2025-01-05T10:00:00.000Z',
      }).success,
    ).toBe(false);
    const parsed = JOBS['thought.transcribe'].payload.parse({ userId: 1, thoughtId: 2, content: 'secret' });
    expect(parsed).toEqual({ userId: 1, thoughtId: 2 });
  });
});
