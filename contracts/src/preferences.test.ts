import { describe, expect, it } from 'vitest';
import { PreferencesPatch } from './preferences';

describe('PreferencesPatch', () => {
  it('takes one or more flags', () => {
    expect(PreferencesPatch.parse({ askBeforeEmails: false })).toEqual({ askBeforeEmails: false });
  });

  it('refuses an empty patch, unknown keys and non-booleans', () => {
    expect(PreferencesPatch.safeParse({}).success).toBe(false);
    expect(PreferencesPatch.safeParse({ askBeforeEmails: false, theme: 'dark' }).success).toBe(false);
    expect(PreferencesPatch.safeParse({ askBeforeEmails: 'no' }).success).toBe(false);
  });
});
