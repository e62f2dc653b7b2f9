import { describe, expect, it } from 'vitest';
import { periodOf, periodsContaining } from './periods';

describe('periods', () => {
  it('runs weeks Monday to Sunday', () => {
    expect(periodOf('week', '2025-03-09')).toEqual({ range: 'week', start: '2025-03-03', end: '2025-03-09' });
    expect(periodOf('week', '2025-03-10')).toEqual({ range: 'week', start: '2025-03-10', end: '2025-03-16' });
    expect(periodOf('week', '2025-01-01')).toEqual({ range: 'week', start: '2024-12-30', end: '2025-01-05' });
  });

  it('runs months by calendar, leap years included', () => {
    expect(periodOf('month', '2024-02-15')).toEqual({
      range: 'month',
      start: '2024-02-01',
      end: '2024-02-29',
    });
    expect(periodOf('month', '2025-12-31')).toEqual({
      range: 'month',
      start: '2025-12-01',
      end: '2025-12-31',
    });
  });

  it('names the day, week and month a change makes stale', () => {
    expect(periodsContaining('2025-03-09').map((p) => `${p.range}:${p.start}`)).toEqual([
      'day:2025-03-09',
      'week:2025-03-03',
      'month:2025-03-01',
    ]);
  });
});
