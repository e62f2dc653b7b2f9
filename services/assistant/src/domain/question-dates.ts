import * as chrono from 'chrono-node';
import { MONTHS } from '@haven/contracts/english-dates';

/*
 * The period a question is about, as a range of the user's days: "this week" is Monday to Sunday
 * (the insights views' week), "in March" the whole of the latest March, "the week after 2 September
 * 1666" the seven days after that day, not after today. Pure: the user's today comes in.
 */

/** A period of the user's days, both ends included (yyyy-MM-dd). */
export interface DayRange {
  start: string;
  end: string;
}

export interface QuestionDates {
  /** The period the question names, or null when it names none. */
  range: DayRange | null;
  /** The question with the words naming the period taken out (what is left to search for). */
  rest: string;
  /** A period the question names that cannot be known, such as the user's birthday. */
  unknown?: 'birthday';
}

/** What else is known about the user, for periods such as "my birthday". */
export interface KnownDates {
  /** The user's birthday as MM-dd (or yyyy-MM-dd), when known. */
  birthday?: string | null;
}

const MONTH_NAME =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const monthOf = (name: string) =>
  MONTHS.findIndex((m) => m.toLowerCase().startsWith(name.toLowerCase().slice(0, 3))) + 1;
const ORDINAL = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (day: string) => new Date(`${day}T00:00:00Z`);
/** The day y-m-d, months and days past their ends carried over (Date.UTC reads years below 100 as 19xx). */
const ymd = (y: number, m: number, d: number) => {
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
const lastOfMonth = (y: number, m: number) => iso(ymd(y, m + 1, 0));
const monthRange = (y: number, m: number): DayRange => ({ start: iso(ymd(y, m, 1)), end: lastOfMonth(y, m) });
const yearRange = (y: number): DayRange => ({ start: iso(ymd(y, 1, 1)), end: iso(ymd(y, 12, 31)) });
/** The Monday of `day`'s week. */
const mondayOf = (day: string) => addDays(day, -((utc(day).getUTCDay() + 6) % 7));
const validDay = (y: number, m: number, d: number) => {
  const date = ymd(y, m, d);
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? iso(date) : null;
};

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

interface Found {
  range: DayRange;
  index: number;
  length: number;
}

/** The latest `month`/`day` not after today (this year's, else last year's). */
function latestPast(today: string, month: number, day: number | null): number {
  const year = +today.slice(0, 4);
  const candidate = `${year}-${pad(month)}-${pad(day ?? 1)}`;
  return candidate <= today ? year : year - 1;
}

/** The first day the text names, with where it is. */
function findDay(text: string, today: string): Found | null {
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
  if (best) return best;
  // Anything else chrono reads as a day: "yesterday", "last Tuesday", "three days ago", "today".
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

/** A period the text names, by the first rule that finds one (most specific first). */
function findPeriod(text: string, today: string, known: KnownDates): Found | 'birthday' | null {
  const year = +today.slice(0, 4);
  const month = +today.slice(5, 7);
  const at = (m: RegExpExecArray, range: DayRange): Found => ({ range, index: m.index, length: m[0].length });
  let m: RegExpExecArray | null;

  // "on my birthday last year", "my birthday in 1665"
  if ((m = /\b(?:on\s+|for\s+)?my\s+birthday(?:\s+(last|this|next)\s+year|\s+in\s+(\d{4}))?/i.exec(text))) {
    const born = /(\d{2})-(\d{2})$/.exec(known.birthday ?? '');
    if (!born) return 'birthday';
    const y = m[2] ? +m[2] : m[1] === 'last' ? year - 1 : m[1] === 'next' ? year + 1 : null;
    const on = validDay(y ?? latestPast(today, +born[1]!, +born[2]!), +born[1]!, +born[2]!);
    return on ? at(m, { start: on, end: on }) : null;
  }

  // "the week after 2 September 1666", "the days before Christmas" (relative to the named day)
  if (
    (m =
      /\b(?:in\s+|during\s+|on\s+)?the\s+(?:(\d+|two|three|four|five|six|seven)\s+)?(day|days|week|weeks|fortnight|month)\s+(after|following|before|preceding|leading up to)\s+/i.exec(
        text,
      ))
  ) {
    const after = text.slice(m.index + m[0].length);
    const anchor = findDay(after, today);
    if (anchor && anchor.index === 0) {
      const words: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
      const count = m[1] ? (words[m[1].toLowerCase()] ?? +m[1]) : 1;
      const unit = m[2]!.toLowerCase().replace(/s$/, '');
      const days = count * ({ day: 1, week: 7, fortnight: 14, month: 30 }[unit] ?? 7);
      const forward = /after|following/i.test(m[3]!);
      const from = forward ? anchor.range.end : anchor.range.start;
      const range = forward
        ? { start: addDays(from, 1), end: addDays(from, days) }
        : { start: addDays(from, -days), end: addDays(from, -1) };
      return { range, index: m.index, length: m[0].length + anchor.length };
    }
  }

  // "between 1 and 5 March 1666", "from 2 September to 9 September 1666"
  if ((m = /\b(?:between|from)\s+(.+?)\s+(?:and|to|until|till)\s+/i.exec(text))) {
    const last = findDay(text.slice(m.index + m[0].length), today);
    if (last && last.index === 0) {
      const bare = /^(\d{1,2})(?:st|nd|rd|th)?$/i.exec(m[1]!.trim());
      const first = bare
        ? validDay(+last.range.start.slice(0, 4), +last.range.start.slice(5, 7), +bare[1]!)
        : (() => {
            const f = findDay(`${m![1]!} ${last.range.start.slice(0, 4)}`, today);
            return f && f.index === 0 ? f.range.start : null;
          })();
      if (first && first <= last.range.end)
        return {
          range: { start: first, end: last.range.end },
          index: m.index,
          length: m[0].length + last.length,
        };
    }
  }

  // "in September last year", "March this year"
  if ((m = new RegExp(`\\b(?:(?:in|during|of)\\s+)?${MONTH_NAME}\\s+(last|this)\\s+year\\b`, 'i').exec(text)))
    return at(m, monthRange(m[2]!.toLowerCase() === 'last' ? year - 1 : year, monthOf(m[1]!)));

  // "the first week of March 1666", "the last week of May"
  if (
    (m = new RegExp(
      `\\b(?:(?:in|during)\\s+)?the\\s+(first|second|third|fourth|last)\\s+week\\s+of\\s+${MONTH_NAME}(?:,?\\s+${YEAR})?`,
      'i',
    ).exec(text))
  ) {
    const mo = monthOf(m[2]!);
    const y = m[3] ? +m[3] : latestPast(today, mo, 1);
    const nth = ['first', 'second', 'third', 'fourth'].indexOf(m[1]!.toLowerCase());
    const end = nth < 0 ? lastOfMonth(y, mo) : iso(ymd(y, mo, 7 * (nth + 1)));
    return at(m, { start: addDays(end, -6), end });
  }

  // "the summer of 1665", "last winter", "in spring" (winter: December to February)
  if (
    (m =
      /\b(?:(?:in|during)\s+)?(?:(last|this)\s+|the\s+)?(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?(\d{4}))?\b/i.exec(
        text,
      )) &&
    (m[1] || m[3] || /^(?:in|during)\s/i.test(m[0])) &&
    // "Spring Garden" is a place: a capitalised season before a capitalised word is a name.
    !(/^[A-Z]/.test(m[2]!) && /^\s+[A-Z]/.test(text.slice(m.index + m[0].length)))
  ) {
    const first = { spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 }[m[2]!.toLowerCase()]!;
    // A winter is named by the year it begins in.
    const startIn = (y: number) => ymd(y, first, 1);
    let y: number;
    if (m[3]) y = +m[3];
    else {
      y = iso(startIn(year)) <= today ? year : year - 1;
      if (m[1]?.toLowerCase() === 'last') {
        const endOfThis = iso(ymd(y, first + 3, 0));
        if (endOfThis >= today) y -= 1;
      }
    }
    return at(m, { start: iso(startIn(y)), end: iso(ymd(y, first + 3, 0)) });
  }

  // "this weekend", "last weekend"
  if ((m = /\b(?:(?:on|over|at)\s+)?(this|last|next)\s+weekend\b/i.exec(text))) {
    const step = { this: 0, last: -1, next: 1 }[m[1]!.toLowerCase() as 'this' | 'last' | 'next'];
    const saturday = addDays(mondayOf(today), 5 + 7 * step);
    return at(m, { start: saturday, end: addDays(saturday, 1) });
  }

  // "at Christmas 1662", "on New Year's Day"
  // (unless the day is also written out: "on Christmas Day, 25 December 1665")
  if (
    !findDay(text, today) &&
    (m =
      /\b(?:(?:at|on|over)\s+)?(christmas(?:\s+day)?|christmas\s+eve|new\s+year'?s?\s+(?:day|eve))(?:,?\s+(\d{4}))?\b/i.exec(
        text,
      ))
  ) {
    const name = m[1]!.toLowerCase();
    const [mo, d] = name.includes('eve')
      ? name.startsWith('new')
        ? [12, 31]
        : [12, 24]
      : name.startsWith('new')
        ? [1, 1]
        : [12, 25];
    const y = m[2] ? +m[2] : latestPast(today, mo!, d!);
    const day = iso(ymd(y, mo!, d!));
    return at(m, { start: day, end: day });
  }

  // "this week", "last week", "next week", "this month", "last year", "the past week"
  if (
    (m =
      /\b(?:(?:in|during|over)\s+)?(this|last|past|previous|next|the past|the last)\s+(week|month|year)\b/i.exec(
        text,
      ))
  ) {
    const which = m[1]!.toLowerCase();
    const unit = m[2]!.toLowerCase();
    const today0 = today;
    if (which === 'past' || which === 'the past' || which === 'the last') {
      const days = unit === 'week' ? 7 : unit === 'month' ? 30 : 365;
      return at(m, { start: addDays(today0, -(days - 1)), end: today0 });
    }
    const step = which === 'this' ? 0 : which === 'next' ? 1 : -1;
    if (unit === 'week') {
      const start = addDays(mondayOf(today0), 7 * step);
      return at(m, { start, end: addDays(start, 6) });
    }
    if (unit === 'month') {
      const d = ymd(year, month + step, 1);
      return at(m, monthRange(d.getUTCFullYear(), d.getUTCMonth() + 1));
    }
    return at(m, yearRange(year + step));
  }

  // "the last 3 days", "the past two weeks"
  if (
    (m =
      /\b(?:in\s+|over\s+)?the\s+(?:last|past)\s+(\d+|two|three|four|five|six|seven|ten)\s+(days|weeks)\b/i.exec(
        text,
      ))
  ) {
    const words: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, ten: 10 };
    const n = words[m[1]!.toLowerCase()] ?? +m[1]!;
    const days = n * (m[2]!.toLowerCase() === 'weeks' ? 7 : 1);
    return at(m, { start: addDays(today, -(days - 1)), end: today });
  }

  // A day written out, or one chrono reads ("yesterday", "last Tuesday")
  const day = findDay(text, today);

  // "in March 1666", "March 1666"
  const monthYear = new RegExp(
    `\\b(?:(?:in|during|of)\\s+)?${MONTH_NAME}(?:\\s+of)?,?\\s+${YEAR}\\b`,
    'i',
  ).exec(text);
  if (monthYear && (!day || day.index > monthYear.index || day.range.start.slice(0, 4) !== monthYear[2])) {
    // A month with its year, unless it is part of a written-out day
    const inside =
      day && day.index <= monthYear.index + monthYear[0].length && monthYear.index <= day.index + day.length;
    if (!inside) return at(monthYear, monthRange(+monthYear[2]!, monthOf(monthYear[1]!)));
  }
  if (day) return day;

  // "in March", "last March", "this May" (May and March only after such a word: they are verbs too)
  if (
    (m = new RegExp(`\\b(?:(in|during|of|last|this)\\s+)?${MONTH_NAME}(?=\\s|[?.!,]|$)`, 'i').exec(text)) &&
    (m[1] || !/^(may|march|mar)$/i.test(m[2]!))
  ) {
    const mo = monthOf(m[2]!);
    let y = mo <= month ? year : year - 1;
    if (m[1]?.toLowerCase() === 'this') y = year;
    if (m[1]?.toLowerCase() === 'last' && mo >= month) y = year - 1;
    return at(m, monthRange(y, mo));
  }

  // "in 1665", "during 1666", "the year 1665"
  if ((m = /\b(?:in|during|of|the year)\s+(\d{4})\b/i.exec(text))) return at(m, yearRange(+m[1]!));

  return null;
}

/**
 * The period `question` names, in the user's days (`today` is the user's today, yyyy-MM-dd), and
 * the question without it.
 */
export function questionDates(question: string, today: string, known: KnownDates = {}): QuestionDates {
  const text = question.replace(/[\u2018\u2019]/g, "'");
  const found = findPeriod(text, today, known);
  if (found === 'birthday')
    return {
      range: null,
      rest: text.replace(/\b(?:on\s+|for\s+)?my\s+birthday\b/i, ' '),
      unknown: 'birthday',
    };
  if (!found) return { range: null, rest: text };
  return {
    range: found.range,
    rest: `${text.slice(0, found.index)} ${text.slice(found.index + found.length)}`
      .replace(/\s+/g, ' ')
      .trim(),
  };
}
