/**
 * Dates as notes write them. A note's `localDate` is the calendar day written in the source (a
 * `2023-01-01T23:30:00-05:00` note belongs to 2023-01-01 whatever the UTC day); a date without a
 * time is put at 12:00 UTC so that no time zone moves it to another day.
 */

/** A note's instant (ISO with `Z`) and its calendar day as written. */
export interface NoteDate {
  date: string;
  localDate: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The date when year/month/day form a real calendar day (years 1..9999), else null. */
function calendar(y: number, mo: number, d: number, h = 12, mi = 0, s = 0, ms = 0): Date | null {
  if (!(y >= 1 && y <= 9999 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31)) return null;
  if (h > 23 || mi > 59 || s > 60) return null;
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, Math.min(s, 59), ms));
  date.setUTCFullYear(y);
  return date.getUTCDate() === d ? date : null;
}

const dayOf = (y: number, mo: number, d: number) => `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;

/** An instant whose written day is its UTC day (app metadata in UTC, epoch numbers). */
export function fromInstant(date: Date): NoteDate | null {
  const t = date.getTime();
  if (Number.isNaN(t) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) return null;
  return { date: date.toISOString(), localDate: date.toISOString().slice(0, 10) };
}

/** An instant seen on the calendar of an IANA time zone (Day One's `timeZone`); UTC when unknown. */
export function inTimeZone(date: Date, timeZone: string | undefined): NoteDate | null {
  const base = fromInstant(date);
  // Zone names are short (the longest IANA name has 32 characters); Intl is slow on a huge one.
  if (!base || !timeZone || timeZone.length > 64) return base;
  try {
    const local = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(date);
    return /^\d{4}-\d{2}-\d{2}$/.test(local) ? { ...base, localDate: local } : base;
  } catch {
    return base; // an unknown zone name: the UTC day is the best we know
  }
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthOf = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

const ISO =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const SLASHED = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/;
// Notesnook (and Joplin's tests of it) write day first: 01-01-2024 01:23 AM.
const DAY_FIRST = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)?)?$/i;
const RFC2822 =
  /^(?:[A-Za-z]{3},?\s+)?(\d{1,2})\s+([A-Za-z]{3,9})\s+(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(Z|GMT|UTC|[A-Z]{3}|[+-]\d{4})?)?$/;
const MONTH_FIRST = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/;
// Evernote: 20240102T103000Z.
const COMPACT = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const ZONES: Record<string, number> = { Z: 0, GMT: 0, UTC: 0, EST: -300, EDT: -240, CST: -360 };
Object.assign(ZONES, { CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420 });

/** Minutes east of UTC of a written offset (`Z`, `+05:30`, `-0700`, `GMT`), or null if none. */
function offsetMinutes(zone: string | undefined): number | null {
  if (!zone) return null;
  const named = ZONES[zone.toUpperCase()];
  if (named !== undefined) return named;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

/** A written calendar day and wall time, moved to UTC by its offset when it has one. */
function written(
  y: number,
  mo: number,
  d: number,
  time: { h: number; mi: number; s?: number; ms?: number } | null,
  zone?: string,
): NoteDate | null {
  const wall = time ? calendar(y, mo, d, time.h, time.mi, time.s ?? 0, time.ms ?? 0) : calendar(y, mo, d);
  if (!wall) return null;
  const offset = time ? offsetMinutes(zone) : null;
  const instant = offset === null ? wall : new Date(wall.getTime() - offset * 60_000);
  return fromInstant(instant) && { date: instant.toISOString(), localDate: dayOf(y, mo, d) };
}

/** An epoch number in seconds or milliseconds (years 1973..5138 either way), or null. */
function fromEpoch(n: number): NoteDate | null {
  if (!Number.isFinite(n) || n < 1e8) return null;
  return fromInstant(new Date(n >= 1e11 ? n : n * 1000));
}

/**
 * A front-matter or metadata date value, in any of the forms notes use: ISO with or without a zone,
 * RFC 2822, `YYYY-MM-DD HH:mm`, `YYYY-MM-DD`, `YYYY/MM/DD`, `DD-MM-YYYY hh:mm AM`, `Feb 26th, 2021`
 * (Logseq), `20240102T103000Z` (Evernote), epoch seconds or milliseconds, or a `Date` a YAML parser
 * made. Null when it is none of them (a template's `{{date}}`, an empty value).
 */
export function parseDateValue(value: unknown): NoteDate | null {
  if (value instanceof Date) return fromParsedDate(value);
  if (typeof value === 'number') return fromEpoch(value);
  if (typeof value !== 'string') return null;
  const text = value
    .trim()
    .replace(/^\[\[(.*)\]\]$/, '$1')
    .trim();
  // The first form the text is in decides, even when its date is not a real one.
  for (const form of WRITTEN_FORMS) {
    const date = form(text);
    if (date !== undefined) return date;
  }
  return null;
}

/** A `Date` a YAML parser made. */
function fromParsedDate(value: Date): NoteDate | null {
  // YAML 1.1 parsers read a bare `2021-02-26` as UTC midnight: that is a day, not an instant.
  const day = value.toISOString?.().slice(0, 10);
  if (!day || Number.isNaN(value.getTime())) return null;
  return value.getTime() % 86_400_000 === 0
    ? written(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate(), null)
    : fromInstant(value);
}

/** The date of a text in one written form (null when it is not a real date), or undefined when not in it. */
type WrittenForm = (text: string) => NoteDate | null | undefined;

const fromIso: WrittenForm = (text) => {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const time =
    h === undefined ? null : { h: +h, mi: +mi!, s: +(s ?? 0), ms: +(frac ?? '0').slice(0, 3).padEnd(3, '0') };
  return written(+y!, +mo!, +d!, time, zone);
};

const fromSlashed: WrittenForm = (text) => {
  const m = SLASHED.exec(text);
  return m ? written(+m[1]!, +m[2]!, +m[3]!, null) : undefined;
};

const fromCompact: WrittenForm = (text) => {
  const m = COMPACT.exec(text);
  return m ? written(+m[1]!, +m[2]!, +m[3]!, { h: +m[4]!, mi: +m[5]!, s: +m[6]! }, 'Z') : undefined;
};

const fromDayFirst: WrittenForm = (text) => {
  const m = DAY_FIRST.exec(text);
  if (!m) return undefined;
  const [, d, mo, y, h, mi, s, ampm] = m;
  if (h === undefined) return written(+y!, +mo!, +d!, null);
  let hour = +h;
  if (ampm) hour = (hour % 12) + (ampm.toUpperCase() === 'PM' ? 12 : 0);
  return written(+y!, +mo!, +d!, { h: hour, mi: +mi!, s: +(s ?? 0) });
};

const fromRfc2822: WrittenForm = (text) => {
  const m = RFC2822.exec(text);
  if (!m) return undefined;
  const [, d, month, y, h, mi, s, zone] = m;
  const mo = monthOf(month!);
  if (mo === 0) return null;
  return written(+y!, mo, +d!, h === undefined ? null : { h: +h, mi: +mi!, s: +(s ?? 0) }, zone);
};

const fromMonthFirst: WrittenForm = (text) => {
  const m = MONTH_FIRST.exec(text);
  if (!m) return undefined;
  const mo = monthOf(m[1]!);
  return mo === 0 ? null : written(+m[3]!, mo, +m[2]!, null);
};

const fromEpochText: WrittenForm = (text) => (/^\d{9,13}$/.test(text) ? fromEpoch(Number(text)) : undefined);

/** The forms a date is written in, in the order they are tried. */
const WRITTEN_FORMS: readonly WrittenForm[] = [
  fromIso,
  fromSlashed,
  fromCompact,
  fromDayFirst,
  fromRfc2822,
  fromMonthFirst,
  fromEpochText,
];

// 2021-02-26, 2021_02_26, 2021.02.26, then an optional time: "2021-02-26 14.05 Walk". Years
// 1000–2999: a historical diary (`1660-01-01.md`) is dated, and what is left out (`0001-…`,
// `3021-…`) is a placeholder or a number far likelier than a date; a thought allows years 1–9999.
// The two-digit month and day with the same separator twice keep version numbers out.
const NAME_DATE =
  /(?<![\d])([12]\d{3})([-_.])(\d{2})\2(\d{2})(?:[ T_-](\d{2})[.:h-]?(\d{2})(?![\d]))?(?![\d])/;

/**
 * The date written in a file name (`2021_02_26.md`, `2021.02.26 note.md`, `2021-02-26 14.05
 * Walk.md`, `1660-01-01.md`), or null.
 */
export function dateFromFileName(base: string): NoteDate | null {
  const m = NAME_DATE.exec(base);
  if (!m) return null;
  const [, y, , mo, d, h, mi] = m;
  return written(+y!, +mo!, +d!, h === undefined ? null : { h: +h, mi: +mi! });
}
