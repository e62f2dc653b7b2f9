import { describe, expect, it } from 'vitest';
import { PreferencesPatch } from './preferences';

describe('PreferencesPatch', () => {
  it('takes one or more flags', () => {
    expect(PreferencesPatch.parse({ askBeforeEmails: false })).toEqual({ askBeforeEmails: false });
  });

  it('takes a weekly review day from 0 (Sunday) to 6, or null for none', () => {
    expect(PreferencesPatch.parse({ weeklyReviewDay: 5 })).toEqual({ weeklyReviewDay: 5 });
    expect(PreferencesPatch.parse({ weeklyReviewDay: null })).toEqual({ weeklyReviewDay: null });
    for (const bad of [7, -1, 2.5, 'friday']) {
      expect(PreferencesPatch.safeParse({ weeklyReviewDay: bad }).success).toBe(false);
    }
  });

  it('refuses an empty patch, unknown keys and non-booleans', () => {
    expect(PreferencesPatch.safeParse({}).success).toBe(false);
    expect(PreferencesPatch.safeParse({ askBeforeEmails: false, theme: 'dark' }).success).toBe(false);
    expect(PreferencesPatch.safeParse({ askBeforeEmails: 'no' }).success).toBe(false);
  });
});
