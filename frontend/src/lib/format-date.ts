import { MONTHS, WEEKDAYS } from '@haven/contracts/english-dates';

import { uses24Hour } from '@/lib/time-format';

/** `yyyy-MM-dd` of the date in the browser's own time zone (the thought date format). */
export function formatYmd(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

// English dates written from their names (english-dates.ts says why not Intl); format-date.test.ts
// checks every form against Intl's en-US output.

/** 'Monday', or 'Mon' with `short`, in the browser's time zone. */
export function formatWeekday(date: Date, length: 'long' | 'short' = 'long'): string {
  const name = WEEKDAYS[date.getDay()]!;
  return length === 'short' ? name.slice(0, 3) : name;
}

/** 'January', or 'Jan' with `short`. */
export function formatMonthName(date: Date, length: 'long' | 'short' = 'long'): string {
  const name = MONTHS[date.getMonth()]!;
  return length === 'short' ? name.slice(0, 3) : name;
}

/** 'January 5', or 'Jan 5' with `short`, in the browser's time zone. */
export function formatMonthDay(date: Date, month: 'long' | 'short' = 'long'): string {
  return `${formatMonthName(date, month)} ${date.getDate()}`;
}

/** Like 'Monday, January 5, 2025'. */
export function formatLongDate(date: Date): string {
  return `${formatWeekday(date)}, ${formatMonthDay(date)}, ${date.getFullYear()}`;
}

/** Like 'Jan 5, 2025'. */
export function formatShortDate(date: Date): string {
  return `${formatMonthDay(date, 'short')}, ${date.getFullYear()}`;
}

/**
 * Every time of day the app shows is written here: like '6:35 PM', or '18:35' on a 24-hour clock
 * (the Display setting, by default the browser's preference: `time-format.ts`).
 */
function formatClockParts(hours: number, minutes: number): string {
  const mm = String(minutes).padStart(2, '0');
  if (uses24Hour()) return `${String(hours).padStart(2, '0')}:${mm}`;
  return `${hours % 12 || 12}:${mm} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** Like '9:05 AM' (or '09:05'), in the browser's time zone. */
export function formatTimeOfDay(date: Date): string {
  return formatClockParts(date.getHours(), date.getMinutes());
}

/** A wall-clock time given as `HH:mm` (an event's start, a time picker's option), like '3:00 PM' or '15:00'. */
export function formatClock(hhmm: string): string {
  const [hours = Number.NaN, minutes = Number.NaN] = hhmm.split(':').map(Number);
  if (!Number.isInteger(hours) || !Number.isInteger(minutes)) return hhmm;
  return formatClockParts(hours, minutes);
}

/** Like 'January 2025'. */
export function formatMonthYear(date: Date): string {
  return `${formatMonthName(date)} ${date.getFullYear()}`;
}

/**
 * A `Date#getTimezoneOffset()` value (minutes *behind* UTC, so -60 for UTC+1) as `+hh:mm` / `-hh:mm`.
 */
export function formatOffsetMinutes(timezoneOffset: number): string {
  const minutes = -timezoneOffset;
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Like 'Mon, Nov 23'. */
export function formatWeekdayMonthDay(date: Date): string {
  return `${formatWeekday(date, 'short')}, ${formatMonthDay(date, 'short')}`;
}

/** A moment as a person reads it, like 'Nov 23, 2026, 11:19 AM' (no seconds, no numeric month). */
export function formatDateTime(date: Date): string {
  return `${formatShortDate(date)}, ${formatTimeOfDay(date)}`;
}

/**
 * A wall-clock date and time given as `yyyy-MM-dd` and `HH:mm` (an event's start), like
 * 'Thu, Nov 26, 3:00 PM': a date shown to a person is never `yyyy-MM-dd`.
 */
export function formatWallDateTime(ymd: string, hhmm: string): string {
  const [y = 1970, m = 1, d = 1] = ymd.split('-').map(Number);
  return `${formatWeekdayMonthDay(new Date(y, m - 1, d))}, ${formatClock(hhmm)}`;
}
