import { formatShortDate, formatTimeOfDay as timeOfDay } from '@/lib/format-date';
import { parseYmd } from '@/lib/local-day';

/** Like '9:05 AM', in the browser's time zone. */
export function formatTimeOfDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeOfDay(date);
}

/** Like 'Jan 5, 2025' for a `yyyy-MM-dd` day (read as a local calendar day, not UTC midnight). */
export function formatShortDay(ymd: string): string {
  return formatShortDate(parseYmd(ymd));
}
