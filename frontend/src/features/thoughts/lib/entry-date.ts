import { formatTimeOfDay, formatWeekdayMonthDay, formatYmd } from '@/lib/format-date';
import { parseYmd, shiftYmd } from '@/lib/local-day';

/** A date the user picked for an entry: a `yyyy-MM-dd` day and an `HH:mm` time, in their own zone. */
export interface EntryDate {
  day: string;
  time: string;
}

/** `HH:mm` of a moment, as a time input holds it. */
export function timeInputValue(date: Date): string {
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/** The picked day at the picked time (seconds from now, to keep entries of one minute in order). */
export function entryInstant(picked: EntryDate | null, now = new Date()): Date {
  if (!picked) return now;
  const day = parseYmd(picked.day);
  const [hours = 0, minutes = 0] = picked.time.split(':').map(Number);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate(), hours, minutes, now.getSeconds());
}

/** The date a capture starts with: now, or on a past or future day the screen shows, that day now. */
export function initialEntryDate(day: string | undefined, now = new Date()): EntryDate | null {
  if (!day || day === formatYmd(now)) return null;
  return { day, time: timeInputValue(now) };
}

/** Like 'Today, 6:42 PM', 'Yesterday, 6:42 PM' or 'Wed, Nov 25, 6:42 PM'. */
export function entryDateLabel(date: Date, now = new Date()): string {
  const ymd = formatYmd(date);
  const today = formatYmd(now);
  const day =
    ymd === today
      ? 'Today'
      : ymd === shiftYmd(today, -1)
        ? 'Yesterday'
        : ymd.slice(0, 4) === today.slice(0, 4)
          ? formatWeekdayMonthDay(date)
          : `${formatWeekdayMonthDay(date)}, ${date.getFullYear()}`;
  return `${day}, ${formatTimeOfDay(date)}`;
}
