import type { InsightRange } from '@haven/contracts/insights';

import { formatLongDate, formatMonthDay, formatMonthYear, formatYmd } from '@/lib/format-date';
import { parseYmd } from '@/lib/local-day';

/** The first day of the period of `range` containing `ymd`: weeks start on Monday here (spec 9). */
export function periodStart(range: InsightRange, ymd: string): string {
  const d = parseYmd(ymd);
  if (range === 'day') return ymd;
  if (range === 'week')
    return formatYmd(new Date(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7)));
  return formatYmd(new Date(d.getFullYear(), d.getMonth(), 1));
}

/** A day of the previous (`-1`) or next (`1`) period. */
export function shiftPeriod(range: InsightRange, ymd: string, step: -1 | 1): string {
  const d = parseYmd(periodStart(range, ymd));
  if (range === 'day') return formatYmd(new Date(d.getFullYear(), d.getMonth(), d.getDate() + step));
  if (range === 'week') return formatYmd(new Date(d.getFullYear(), d.getMonth(), d.getDate() + 7 * step));
  return formatYmd(new Date(d.getFullYear(), d.getMonth() + step, 1));
}

/** 'Monday, March 3, 2025', 'Mar 3 – Mar 9, 2025' or 'March 2025'. */
export function periodLabel(range: InsightRange, ymd: string): string {
  const start = parseYmd(periodStart(range, ymd));
  if (range === 'day') return formatLongDate(start);
  if (range === 'month') return formatMonthYear(start);
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 6);
  return `${formatMonthDay(start, 'short')} – ${formatMonthDay(end, 'short')}, ${end.getFullYear()}`;
}

/** Whether the period of `range` containing `ymd` is the one containing `today` (or a later one). */
export function isLatestPeriod(range: InsightRange, ymd: string, today: string): boolean {
  return periodStart(range, ymd) >= periodStart(range, today);
}

/** Why 'Next period' is off on the current period, read with the disabled button. */
export const LATEST_PERIOD_REASON: Record<InsightRange, string> = {
  day: 'This is today: there are no insights for later days yet.',
  week: 'This is the current week: there are no insights for later weeks yet.',
  month: 'This is the current month: there are no insights for later months yet.',
};
