import { isRealLocalDate } from '@haven/contracts/common';

import { formatMonthDay, formatYmd } from '@/lib/format-date';

/** Today as `yyyy-MM-dd` in the user's own calendar (not UTC). */
export function todayYmd(): string {
  return formatYmd(new Date());
}

/** Local midnight of a `yyyy-MM-dd` day. */
export function parseYmd(ymd: string): Date {
  const [y = 1970, m = 1, d = 1] = ymd.split('-').map(Number);
  return new Date(y, m - 1, d);
}

/** The day `days` after `ymd` (negative for before). */
export function shiftYmd(ymd: string, days: number): string {
  const date = parseYmd(ymd);
  return formatYmd(new Date(date.getFullYear(), date.getMonth(), date.getDate() + days));
}

/** The `?date=` value when it names a real day, else today. */
export function dayFromParam(param: string | null): string {
  return param !== null && isRealLocalDate(param) ? param : todayYmd();
}

/** 'Today's Thoughts', or 'Thoughts from January 5' for any other day. */
export function dayListHeading(ymd: string, today: string): string {
  return ymd === today ? "Today's Thoughts" : `Thoughts from ${formatMonthDay(parseYmd(ymd))}`;
}
