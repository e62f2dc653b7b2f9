import {
  addDays,
  findDay,
  iso,
  lastOfMonth,
  latestPast,
  mondayOf,
  MONTH_NAME,
  monthOf,
  monthRange,
  validDay,
  YEAR,
  yearRange,
  ymd,
  type DayRange,
  type Found,
} from './question-days';

/*
 * The periods a question may name, as a table: each a pattern and a small resolver, tried in order
 * (most specific first); the first that resolves is the period. See question-dates.ts.
 */

/** What else is known about the user, for periods such as "my birthday". */
export interface KnownDates {
  /** The user's birthday as MM-dd (or yyyy-MM-dd), when known. */
  birthday?: string | null;
}

/** A period found, a period that cannot be known ('birthday'), or none (null: stop looking). */
export type Period = Found | 'birthday' | null;

/** What a resolver reads: the text, the user's today, and the day the text names (found once). */
interface Reading {
  text: string;
  today: string;
  year: number;
  month: number;
  known: KnownDates;
  day(): Found | null;
}

/** A rule of the table: the period it finds, or undefined when it finds none (the next rule is tried). */
type PeriodRule = (r: Reading) => Period | undefined;
type Resolver = (m: RegExpExecArray, r: Reading) => Period | undefined;

/** A rule that resolves the first match of `pattern`. */
const matching =
  (pattern: RegExp, resolve: Resolver): PeriodRule =>
  (r) => {
    const m = pattern.exec(r.text);
    return m ? resolve(m, r) : undefined;
  };

const at = (m: RegExpExecArray, range: DayRange): Found => ({ range, index: m.index, length: m[0].length });
const oneDay = (m: RegExpExecArray, day: string) => at(m, { start: day, end: day });
const NUMBER_WORDS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
};
const countOf = (written: string) => NUMBER_WORDS[written.toLowerCase()] ?? +written;
/** The text after the match. */
const after = (m: RegExpExecArray, r: Reading) => r.text.slice(m.index + m[0].length);

/** "on my birthday last year", "my birthday in 1665" */
const birthday: Resolver = (m, r) => {
  const born = /(\d{2})-(\d{2})$/.exec(r.known.birthday ?? '');
  if (!born) return 'birthday';
  const y = m[2] ? +m[2] : m[1] === 'last' ? r.year - 1 : m[1] === 'next' ? r.year + 1 : null;
  const on = validDay(y ?? latestPast(r.today, +born[1]!, +born[2]!), +born[1]!, +born[2]!);
  return on ? oneDay(m, on) : null;
};

/** "the week after 2 September 1666", "the days before Christmas" (relative to the named day) */
const nextToDay: Resolver = (m, r) => {
  const anchor = findDay(after(m, r), r.today);
  if (!anchor || anchor.index !== 0) return undefined;
  const count = m[1] ? countOf(m[1]) : 1;
  const unit = m[2]!.toLowerCase().replace(/s$/, '');
  const days = count * ({ day: 1, week: 7, fortnight: 14, month: 30 }[unit] ?? 7);
  const forward = /after|following/i.test(m[3]!);
  const from = forward ? anchor.range.end : anchor.range.start;
  const range = forward
    ? { start: addDays(from, 1), end: addDays(from, days) }
    : { start: addDays(from, -days), end: addDays(from, -1) };
  return { range, index: m.index, length: m[0].length + anchor.length };
};

/** The first day of "between 1 and 5 March 1666": a bare day of the last day's month, or a day of its year. */
function firstOfBetween(written: string, last: Found, today: string): string | null {
  const bare = /^(\d{1,2})(?:st|nd|rd|th)?$/i.exec(written.trim());
  if (bare) return validDay(+last.range.start.slice(0, 4), +last.range.start.slice(5, 7), +bare[1]!);
  const first = findDay(`${written} ${last.range.start.slice(0, 4)}`, today);
  return first && first.index === 0 ? first.range.start : null;
}

/** "between 1 and 5 March 1666", "from 2 September to 9 September 1666" */
const between: Resolver = (m, r) => {
  const last = findDay(after(m, r), r.today);
  if (!last || last.index !== 0) return undefined;
  const first = firstOfBetween(m[1]!, last, r.today);
  if (!first || first > last.range.end) return undefined;
  return { range: { start: first, end: last.range.end }, index: m.index, length: m[0].length + last.length };
};

/** "in September last year", "March this year" */
const monthOfYear: Resolver = (m, r) =>
  at(m, monthRange(m[2]!.toLowerCase() === 'last' ? r.year - 1 : r.year, monthOf(m[1]!)));

/** "the first week of March 1666", "the last week of May" */
const weekOfMonth: Resolver = (m, r) => {
  const mo = monthOf(m[2]!);
  const y = m[3] ? +m[3] : latestPast(r.today, mo, 1);
  const nth = ['first', 'second', 'third', 'fourth'].indexOf(m[1]!.toLowerCase());
  const end = nth < 0 ? lastOfMonth(y, mo) : iso(ymd(y, mo, 7 * (nth + 1)));
  return at(m, { start: addDays(end, -6), end });
};

const SEASON_STARTS: Record<string, number> = { spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 };

/** The year the season starting in month `first` begins in: the latest begun ("last": the latest ended). */
function seasonYear(first: number, which: string | undefined, r: Reading): number {
  const y = iso(ymd(r.year, first, 1)) <= r.today ? r.year : r.year - 1;
  if (which?.toLowerCase() !== 'last') return y;
  const endOfThis = iso(ymd(y, first + 3, 0));
  return endOfThis >= r.today ? y - 1 : y;
}

/** "the summer of 1665", "last winter", "in spring" (winter: December to February) */
const season: Resolver = (m, r) => {
  if (!m[1] && !m[3] && !/^(?:in|during)\s/i.test(m[0])) return undefined;
  // "Spring Garden" is a place: a capitalised season before a capitalised word is a name.
  if (/^[A-Z]/.test(m[2]!) && /^\s+[A-Z]/.test(after(m, r))) return undefined;
  const first = SEASON_STARTS[m[2]!.toLowerCase()]!;
  // A winter is named by the year it begins in.
  const y = m[3] ? +m[3] : seasonYear(first, m[1], r);
  return at(m, { start: iso(ymd(y, first, 1)), end: iso(ymd(y, first + 3, 0)) });
};

/** "this weekend", "last weekend" */
const weekend: Resolver = (m, r) => {
  const step = { this: 0, last: -1, next: 1 }[m[1]!.toLowerCase() as 'this' | 'last' | 'next'];
  const saturday = addDays(mondayOf(r.today), 5 + 7 * step);
  return at(m, { start: saturday, end: addDays(saturday, 1) });
};

/** The month and day of a feast's name. */
function feastDay(name: string): [number, number] {
  if (name.includes('eve')) return name.startsWith('new') ? [12, 31] : [12, 24];
  return name.startsWith('new') ? [1, 1] : [12, 25];
}

/** "at Christmas 1662", "on New Year's Day" (unless the day is also written out: "on Christmas Day, 25 December 1665") */
const feast: Resolver = (m, r) => {
  if (r.day()) return undefined;
  const [mo, d] = feastDay(m[1]!.toLowerCase());
  const y = m[2] ? +m[2] : latestPast(r.today, mo, d);
  return oneDay(m, iso(ymd(y, mo, d)));
};

/** "this week", "last week", "next week", "this month", "last year", "the past week" */
const calendarUnit: Resolver = (m, r) => {
  const which = m[1]!.toLowerCase();
  const unit = m[2]!.toLowerCase();
  if (which === 'past' || which === 'the past' || which === 'the last') {
    const days = unit === 'week' ? 7 : unit === 'month' ? 30 : 365;
    return at(m, { start: addDays(r.today, -(days - 1)), end: r.today });
  }
  const step = which === 'this' ? 0 : which === 'next' ? 1 : -1;
  if (unit === 'week') {
    const start = addDays(mondayOf(r.today), 7 * step);
    return at(m, { start, end: addDays(start, 6) });
  }
  if (unit === 'month') {
    const d = ymd(r.year, r.month + step, 1);
    return at(m, monthRange(d.getUTCFullYear(), d.getUTCMonth() + 1));
  }
  return at(m, yearRange(r.year + step));
};

/** "the last 3 days", "the past two weeks" */
const lastDays: Resolver = (m, r) => {
  const days = countOf(m[1]!) * (m[2]!.toLowerCase() === 'weeks' ? 7 : 1);
  return at(m, { start: addDays(r.today, -(days - 1)), end: r.today });
};

/** "in March 1666", "March 1666": a month with its year, unless it is part of a written-out day */
const monthWithYear: Resolver = (m, r) => {
  const day = r.day();
  if (day && day.index <= m.index && day.range.start.slice(0, 4) === m[2]) return undefined;
  const inside = day && day.index <= m.index + m[0].length && m.index <= day.index + day.length;
  return inside ? undefined : at(m, monthRange(+m[2]!, monthOf(m[1]!)));
};

/** A day written out, or one chrono reads ("yesterday", "last Tuesday") */
const namedDay: PeriodRule = (r) => r.day() ?? undefined;

/** "in March", "last March", "this May" (May and March only after such a word: they are verbs too) */
const monthName: Resolver = (m, r) => {
  if (!m[1] && /^(may|march|mar)$/i.test(m[2]!)) return undefined;
  const mo = monthOf(m[2]!);
  const which = m[1]?.toLowerCase();
  let y = mo <= r.month ? r.year : r.year - 1;
  if (which === 'this') y = r.year;
  if (which === 'last' && mo >= r.month) y = r.year - 1;
  return at(m, monthRange(y, mo));
};

/** "in 1665", "during 1666", "the year 1665" */
const namedYear: Resolver = (m) => at(m, yearRange(+m[1]!));

/** The periods, most specific first. */
const PERIODS: PeriodRule[] = [
  matching(/\b(?:on\s+|for\s+)?my\s+birthday(?:\s+(last|this|next)\s+year|\s+in\s+(\d{4}))?/i, birthday),
  matching(
    /\b(?:in\s+|during\s+|on\s+)?the\s+(?:(\d+|two|three|four|five|six|seven)\s+)?(day|days|week|weeks|fortnight|month)\s+(after|following|before|preceding|leading up to)\s+/i,
    nextToDay,
  ),
  matching(/\b(?:between|from)\s+(.+?)\s+(?:and|to|until|till)\s+/i, between),
  matching(
    new RegExp(`\\b(?:(?:in|during|of)\\s+)?${MONTH_NAME}\\s+(last|this)\\s+year\\b`, 'i'),
    monthOfYear,
  ),
  matching(
    new RegExp(
      `\\b(?:(?:in|during)\\s+)?the\\s+(first|second|third|fourth|last)\\s+week\\s+of\\s+${MONTH_NAME}(?:,?\\s+${YEAR})?`,
      'i',
    ),
    weekOfMonth,
  ),
  matching(
    /\b(?:(?:in|during)\s+)?(?:(last|this)\s+|the\s+)?(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?(\d{4}))?\b/i,
    season,
  ),
  matching(/\b(?:(?:on|over|at)\s+)?(this|last|next)\s+weekend\b/i, weekend),
  matching(
    /\b(?:(?:at|on|over)\s+)?(christmas(?:\s+day)?|christmas\s+eve|new\s+year'?s?\s+(?:day|eve))(?:,?\s+(\d{4}))?\b/i,
    feast,
  ),
  matching(
    /\b(?:(?:in|during|over)\s+)?(this|last|past|previous|next|the past|the last)\s+(week|month|year)\b/i,
    calendarUnit,
  ),
  matching(
    /\b(?:in\s+|over\s+)?the\s+(?:last|past)\s+(\d+|two|three|four|five|six|seven|ten)\s+(days|weeks)\b/i,
    lastDays,
  ),
  matching(
    new RegExp(`\\b(?:(?:in|during|of)\\s+)?${MONTH_NAME}(?:\\s+of)?,?\\s+${YEAR}\\b`, 'i'),
    monthWithYear,
  ),
  namedDay,
  matching(new RegExp(`\\b(?:(in|during|of|last|this)\\s+)?${MONTH_NAME}(?=\\s|[?.!,]|$)`, 'i'), monthName),
  matching(/\b(?:in|during|of|the year)\s+(\d{4})\b/i, namedYear),
];

/** A period the text names, by the first rule that finds one (most specific first). */
export function findPeriod(text: string, today: string, known: KnownDates): Period {
  let day: Found | null | undefined;
  const reading: Reading = {
    text,
    today,
    year: +today.slice(0, 4),
    month: +today.slice(5, 7),
    known,
    day: () => (day === undefined ? (day = findDay(text, today)) : day),
  };
  for (const rule of PERIODS) {
    const found = rule(reading);
    if (found !== undefined) return found;
  }
  return null;
}
