import type { InsightRange } from '@haven/contracts/insights';

import { formatYmd } from '@/lib/format-date';
import { parseYmd } from '@/lib/local-day';
import { onFirstUse } from '@/lib/on-first-use';

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

const dayLabel = onFirstUse(
  () =>
    new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    }),
);
const shortDay = onFirstUse(() => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' }));
const monthLabel = onFirstUse(() => new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }));

/** 'Monday, March 3, 2025', 'Mar 3 – Mar 9, 2025' or 'March 2025'. */
export function periodLabel(range: InsightRange, ymd: string): string {
  const start = parseYmd(periodStart(range, ymd));
  if (range === 'day') return dayLabel().format(start);
  if (range === 'month') return monthLabel().format(start);
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 6);
  return `${shortDay().format(start)} – ${shortDay().format(end)}, ${end.getFullYear()}`;
}
