import { describe, expect, it } from 'vitest';
import { findingsOf } from './findings';

describe("the engine's findings in a thought", () => {
  it('finds the date and time of a meeting, on the day the thought was written from', () => {
    // Tuesday 24 November 2026: the Thursday after is the 26th.
    const [found] = findingsOf([
      { id: 1, content: 'Schedule a meeting with Tom on Thursday at 3pm', localDate: '2026-11-24' },
    ]);
    expect(found).toMatchObject({
      thoughtId: 1,
      prefill: {
        calendar: {
          start: { date: '2026-11-26', time: '15:00' },
          end: { date: '2026-11-26', time: '16:00' },
        },
      },
    });
    expect(found!.prefill.calendar!.title).toMatch(/meeting with Tom/i);
  });

  it('finds a person to e-mail', () => {
    const [found] = findingsOf([
      { id: 2, content: 'Felt good today. I need to email Tom about the lease.', localDate: '2026-11-24' },
    ]);
    expect(found).toMatchObject({ thoughtId: 2, prefill: { email: { name: 'Tom' } } });
    expect(found!.prefill.email!.subject).toMatch(/lease/i);
  });

  it('leaves out thoughts that mean to do nothing', () => {
    expect(
      findingsOf([
        { id: 3, content: 'I walked by the sea and felt calm.', localDate: '2026-11-24' },
        { id: 4, content: '', localDate: '2026-11-24' },
      ]),
    ).toEqual([]);
  });
});
