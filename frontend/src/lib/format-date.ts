import { onFirstUse } from '@/lib/on-first-use';

/** `yyyy-MM-dd` of the date in the browser's own time zone (the thought date format). */
export function formatYmd(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

const longDate = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    }),
);

/** Like 'Monday, January 5, 2025'. */
export function formatLongDate(date: Date): string {
  return longDate().format(date);
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

// The browser's locale, as the mail screens write their dates.
const dateTime = onFirstUse(
  () => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
);

/** A moment as a person reads it, like 'Nov 23, 2026, 11:19 AM' in en-US (no seconds, no numeric month). */
export function formatDateTime(date: Date): string {
  return dateTime().format(date);
}
