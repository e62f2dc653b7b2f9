import { onFirstUse } from '@/lib/on-first-use';

const timeOfDay = onFirstUse(() => new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }));
const shortDate = onFirstUse(
  () => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' }),
);

/** Like '9:05 AM', in the browser's time zone. */
export function formatTimeOfDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeOfDay().format(date);
}

/** Like 'Jan 5, 2025' for a `yyyy-MM-dd` day (read as a local calendar day, not UTC midnight). */
export function formatShortDay(ymd: string): string {
  const [y = 1970, m = 1, d = 1] = ymd.split('-').map(Number);
  return shortDate().format(new Date(y, m - 1, d));
}
