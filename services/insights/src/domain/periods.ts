import type { InsightRange } from '@haven/contracts/insights';

/** A period of one range: its first and last day, inclusive (`yyyy-MM-dd`). */
export interface Period {
  range: InsightRange;
  start: string;
  end: string;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const utc = (localDate: string) => new Date(`${localDate}T00:00:00Z`);

/** The period of `range` that contains `localDate`: weeks run Monday to Sunday, months by calendar. */
export function periodOf(range: InsightRange, localDate: string): Period {
  const d = utc(localDate);
  if (range === 'day') return { range, start: localDate, end: localDate };
  if (range === 'week') {
    const monday = new Date(d);
    monday.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    const sunday = new Date(monday);
    sunday.setUTCDate(monday.getUTCDate() + 6);
    return { range, start: day(monday), end: day(sunday) };
  }
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
  return { range, start: day(first), end: day(last) };
}

/** The day, week and month a thought of `localDate` belongs to: what goes stale when it changes. */
export function periodsContaining(localDate: string): Period[] {
  return (['day', 'week', 'month'] as const).map((range) => periodOf(range, localDate));
}
