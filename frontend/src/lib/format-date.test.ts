import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { formatFullDate } from '@/components/ui/calendar-days';

import {
  formatClock,
  formatDateTime,
  formatLongDate,
  formatMonthDay,
  formatMonthName,
  formatMonthYear,
  formatShortDate,
  formatTimeOfDay,
  formatWallDateTime,
  formatWeekday,
  formatWeekdayMonthDay,
} from './format-date';
import { storeTimeFormat } from './time-format';

/** What Intl writes in en-US for these options, the form the app's dates had before. */
const intl = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', options);

describe('dates written without Intl', () => {
  // en-US, whose forms these are, writes times on a 12-hour clock.
  beforeEach(() => storeTimeFormat('12'));
  afterEach(() => storeTimeFormat('auto'));

  // Every day of four years (a leap year among them), at a different hour and minute each day.
  const days = Array.from({ length: 4 * 366 }, (_, i) => new Date(2024, 0, 1 + i, i % 24, (i * 7) % 60));

  it('read exactly as Intl en-US writes them', () => {
    const long = intl({ weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
    const monthDay = intl({ month: 'long', day: 'numeric' });
    const shortMonthDay = intl({ month: 'short', day: 'numeric' });
    const shortDate = intl({ month: 'short', day: 'numeric', year: 'numeric' });
    const monthYear = intl({ month: 'long', year: 'numeric' });
    const weekday = intl({ weekday: 'long' });
    const shortWeekday = intl({ weekday: 'short' });
    const time = intl({ hour: 'numeric', minute: '2-digit' });
    const fullDate = intl({ month: 'long', day: 'numeric', year: 'numeric' });
    const weekdayMonthDay = intl({ weekday: 'short', month: 'short', day: 'numeric' });
    const dateTime = intl({ dateStyle: 'medium', timeStyle: 'short' });
    const shortMonth = intl({ month: 'short' });
    for (const day of days) {
      expect(formatLongDate(day)).toBe(long.format(day));
      expect(formatMonthDay(day)).toBe(monthDay.format(day));
      expect(formatMonthDay(day, 'short')).toBe(shortMonthDay.format(day));
      expect(formatShortDate(day)).toBe(shortDate.format(day));
      expect(formatMonthYear(day)).toBe(monthYear.format(day));
      expect(formatWeekday(day)).toBe(weekday.format(day));
      expect(formatWeekday(day, 'short')).toBe(shortWeekday.format(day));
      expect(formatTimeOfDay(day)).toBe(time.format(day));
      expect(formatFullDate(day)).toBe(fullDate.format(day));
      expect(formatWeekdayMonthDay(day)).toBe(weekdayMonthDay.format(day));
      expect(formatDateTime(day)).toBe(dateTime.format(day));
      expect(formatMonthName(day, 'short')).toBe(shortMonth.format(day));
    }
  });

  it('write midnight and noon as 12', () => {
    expect(formatTimeOfDay(new Date(2026, 10, 26, 0, 5))).toBe('12:05 AM');
    expect(formatTimeOfDay(new Date(2026, 10, 26, 12, 0))).toBe('12:00 PM');
    expect(formatLongDate(new Date(2026, 10, 26))).toBe('Thursday, November 26, 2026');
  });
});

describe('times follow the Display setting', () => {
  afterEach(() => storeTimeFormat('auto'));

  it('write a 12-hour clock with AM and PM', () => {
    storeTimeFormat('12');
    expect(formatTimeOfDay(new Date(2026, 10, 26, 18, 35))).toBe('6:35 PM');
    expect(formatClock('15:00')).toBe('3:00 PM');
    expect(formatClock('00:15')).toBe('12:15 AM');
    expect(formatWallDateTime('2026-11-26', '15:00')).toBe('Thu, Nov 26, 3:00 PM');
    expect(formatDateTime(new Date(2026, 10, 27, 9, 5))).toBe('Nov 27, 2026, 9:05 AM');
  });

  it('write a 24-hour clock with two-digit hours', () => {
    storeTimeFormat('24');
    expect(formatTimeOfDay(new Date(2026, 10, 26, 18, 35))).toBe('18:35');
    expect(formatTimeOfDay(new Date(2026, 10, 26, 0, 5))).toBe('00:05');
    expect(formatClock('15:00')).toBe('15:00');
    expect(formatClock('09:45')).toBe('09:45');
    expect(formatWallDateTime('2026-11-26', '15:00')).toBe('Thu, Nov 26, 15:00');
    expect(formatDateTime(new Date(2026, 10, 27, 9, 5))).toBe('Nov 27, 2026, 09:05');
  });

  it('leave a time that is not HH:mm as it came', () => {
    expect(formatClock('soon')).toBe('soon');
  });
});
