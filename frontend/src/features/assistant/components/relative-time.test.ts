import { describe, expect, it } from 'vitest';

import { phrase, relativeTime, type Unit } from './relative-time';

describe('relative times written without Intl', () => {
  it('read exactly as Intl en-US writes them, in every unit, both ways', () => {
    const rtf = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
    const units: Unit[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'];
    const values = [...Array.from({ length: 2001 }, (_, i) => i - 1000), 12_345, -1_234_567];
    for (const unit of units)
      for (const value of values)
        expect(phrase(value, unit), `${value} ${unit}`).toBe(rtf.format(value, unit));
  });

  it('picks the unit a person would', () => {
    const now = Date.UTC(2026, 10, 26, 12);
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    expect(relativeTime(at(-30), now)).toBe('just now');
    expect(relativeTime(at(-50), now)).toBe('50 seconds ago');
    expect(relativeTime(at(-5 * 60), now)).toBe('5 minutes ago');
    expect(relativeTime(at(-3 * 3600), now)).toBe('3 hours ago');
    expect(relativeTime(at(-26 * 3600), now)).toBe('yesterday');
    expect(relativeTime(at(-8 * 86_400), now)).toBe('last week');
    expect(relativeTime(at(-40 * 86_400), now)).toBe('last month');
    expect(relativeTime(at(-400 * 86_400), now)).toBe('last year');
    expect(relativeTime(at(24 * 3600), now)).toBe('tomorrow');
  });
});
