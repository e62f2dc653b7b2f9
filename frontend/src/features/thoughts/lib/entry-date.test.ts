import { describe, expect, it } from 'vitest';

import { entryDateLabel, entryInstant, initialEntryDate } from '@/features/thoughts/lib/entry-date';

describe('the entry date', () => {
  const now = new Date(2026, 10, 26, 18, 42, 17);

  it('starts as now, or on the day the screen shows at the current time', () => {
    expect(initialEntryDate(undefined, now)).toBeNull();
    expect(initialEntryDate('2026-11-26', now)).toBeNull();
    expect(initialEntryDate('2026-11-25', now)).toEqual({ day: '2026-11-25', time: '18:42' });
  });

  it('is the picked day at the picked time, in the local zone', () => {
    const at = entryInstant({ day: '2026-11-25', time: '07:30' }, now);
    expect([at.getFullYear(), at.getMonth(), at.getDate(), at.getHours(), at.getMinutes()]).toEqual([
      2026, 10, 25, 7, 30,
    ]);
    expect(entryInstant(null, now)).toBe(now);
  });

  it('reads as Today, Yesterday or the day', () => {
    expect(entryDateLabel(now, now)).toMatch(/^Today, /);
    expect(entryDateLabel(new Date(2026, 10, 25, 9, 5), now)).toMatch(/^Yesterday, /);
    expect(entryDateLabel(new Date(2026, 10, 20, 9, 5), now)).toMatch(/^Fri, Nov 20, /);
    expect(entryDateLabel(new Date(2025, 10, 20, 9, 5), now)).toMatch(/^Thu, Nov 20, 2025, /);
  });
});
