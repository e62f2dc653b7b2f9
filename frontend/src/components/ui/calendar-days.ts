import { WEEKDAYS } from '@haven/contracts/english-dates';

import { formatMonthDay } from '@/lib/format-date';

/** Calendar arithmetic on local dates (midnight in the browser's time zone), never UTC. */

export type WeekStart = 0 | 1;

/** The local day `days` after `date` (negative for before); safe across daylight-saving changes. */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** The first day of the month `months` after the one `date` falls in. */
export function addMonths(date: Date, months: number): Date {
  return new Date(date.getFullYear(), date.getMonth() + months, 1);
}

export function isSameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

export function isSameMonth(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth();
}

/**
 * The 6 weeks × 7 days shown for the month `month` falls in: from the week (starting on `weekStartsOn`)
 * that holds the 1st, so every month fits and the grid never changes height.
 */
export function monthGrid(month: Date, weekStartsOn: WeekStart = 0): Date[][] {
  const first = new Date(month.getFullYear(), month.getMonth(), 1);
  const start = addDays(first, -((first.getDay() - weekStartsOn + 7) % 7));
  return Array.from({ length: 6 }, (_, week) =>
    Array.from({ length: 7 }, (_, day) => addDays(start, week * 7 + day)),
  );
}

/** Weekday names in display order, e.g. Sunday … Saturday. */
export function weekdayNames(weekStartsOn: WeekStart = 0): string[] {
  return [...WEEKDAYS.slice(weekStartsOn), ...WEEKDAYS.slice(0, weekStartsOn)];
}

/** Like 'January 5, 2025' (a day button's accessible name). */
export function formatFullDate(date: Date): string {
  return `${formatMonthDay(date)}, ${date.getFullYear()}`;
}
