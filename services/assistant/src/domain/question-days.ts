import * as chrono from 'chrono-node';
import { MONTHS } from '@haven/contracts/english-dates';

/*
 * The calendar arithmetic of question-dates.ts, and the one day a text names ("2 September 1666",
 * "yesterday", "last Tuesday"), in the user's days. Pure: the user's today comes in.
 */

/** A period of the user's days, both ends included (yyyy-MM-dd). */
export interface DayRange {
  start: string;
  end: string;
}

/** A period found in a text, with where its words are. */
export interface Found {
  range: DayRange;
  index: number;
  length: number;
}

export const MONTH_NAME =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
export const monthOf = (name: string) =>
  MONTHS.findIndex((m) => m.toLowerCase().startsWith(name.toLowerCase().slice(0, 3))) + 1;
const ORDINAL = '(\\d{1,2})(?:st|nd|rd|th)?';
export const YEAR = '(\\d{4})';

const pad = (n: number) => String(n).padStart(2, '0');
export const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (day: string) => new Date(`${day}T00:00:00Z`);
/** The day y-m-d, months and days past their ends carried over (Date.UTC reads years below 100 as 19xx). */
export const ymd = (y: number, m: number, d: number) => {
  if (y >= 100) return new Date(Date.UTC(y, m - 1, d));
  const date = new Date(Date.UTC(y + 400, m - 1, d));
  date.setUTCFullYear(date.getUTCFullYear() - 400);
  return date;
};
/** `day` moved by `n` days. */
export const addDays = (day: string, n: number) => {
  const d = utc(day);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
};
export const lastOfMonth = (y: number, m: number) => iso(ymd(y, m + 1, 0));
export const monthRange = (y: number, m: number): DayRange => ({
  start: iso(ymd(y, m, 1)),
  end: lastOfMonth(y, m),
});
export const yearRange = (y: number): DayRange => ({ start: iso(ymd(y, 1, 1)), end: iso(ymd(y, 12, 31)) });
/** The Monday of `day`'s week. */
export const mondayOf = (day: string) => addDays(day, -((utc(day).getUTCDay() + 6) % 7));
export const validDay = (y: number, m: number, d: number) => {
  const date = ymd(y, m, d);
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? iso(date) : null;
};

/** The latest `month`/`day` not after today (this year's, else last year's). */
export function latestPast(today: string, month: number, day: number | null): number {
  const year = +today.slice(0, 4);
  const candidate = `${year}-${pad(month)}-${pad(day ?? 1)}`;
  return candidate <= today ? year : year - 1;
}

/** A day written out: "2 September 1666", "2nd of September", "September 2, 1666", "1666-09-02". */
const DAY_PATTERNS: Array<{ re: RegExp; parts: (m: RegExpExecArray) => [number | null, number, number] }> = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/i, parts: (m) => [+m[1]!, +m[2]!, +m[3]!] },
  {
    re: new RegExp(`\\b${ORDINAL}(?:\\s+of)?\\s+${MONTH_NAME}(?:,?\\s+${YEAR})?\\b`, 'i'),
    parts: (m) => [m[3] ? +m[3] : null, monthOf(m[2]!), +m[1]!],
  },
  {
    re: new RegExp(`\\b${MONTH_NAME}\\s+(?:the\\s+)?${ORDINAL}(?:,?\\s+${YEAR})?\\b(?!\\s*(?:am|pm|:))`, 'i'),
    parts: (m) => [m[3] ? +m[3] : null, monthOf(m[1]!), +m[2]!],
  },
];

/** The first day the text writes out (by DAY_PATTERNS), with where it is. */
function writtenDay(text: string, today: string): Found | null {
  let best: Found | null = null;
  for (const { re, parts } of DAY_PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const [y, mo, d] = parts(m);
    if (mo < 1) continue;
    const day = validDay(y ?? latestPast(today, mo, d), mo, d);
    if (!day) continue;
    if (!best || m.index < best.index)
      best = { range: { start: day, end: day }, index: m.index, length: m[0].length };
  }
  return best;
}

/** Anything else chrono reads as a day: "yesterday", "last Tuesday", "three days ago", "today". */
function chronoDay(text: string, today: string): Found | null {
  const [parsed] = chrono.parse(text, { instant: new Date(`${today}T12:00:00Z`), timezone: 0 });
  if (!parsed?.start.isCertain('day') && !parsed?.start.isCertain('weekday')) return null;
  const day = (c: chrono.ParsedComponents) => validDay(c.get('year')!, c.get('month')!, c.get('day')!)!;
  let start = day(parsed.start);
  let end = parsed.end ? day(parsed.end) : start;
  // "on Monday" asks about the last Monday, not the next one.
  if (!parsed.start.isCertain('day') && start > today && !/\bnext\b/i.test(parsed.text)) {
    start = addDays(start, -7);
    end = addDays(end, -7);
  }
  return {
    range: start <= end ? { start, end } : { start: end, end: start },
    index: parsed.index,
    length: parsed.text.length,
  };
}

/** The first day the text names, with where it is: one written out, else one chrono reads. */
export function findDay(text: string, today: string): Found | null {
  return writtenDay(text, today) ?? chronoDay(text, today);
}
