import { customType } from 'drizzle-orm/pg-core';

const POSTGRES_INSTANT =
  /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/;

/**
 * PostgreSQL's text for a `timestamp with time zone` ('0001-01-01 00:00:00+00') as the instant it
 * names. Drizzle's own column hands that text to `new Date`, whose legacy parser reads a year below
 * 100 as 19xx or 20xx: a thought dated in the year 1 came back from its save as 2001.
 */
export function instantFromPostgres(text: string): Date {
  const parts = POSTGRES_INSTANT.exec(text);
  if (!parts) throw new Error(`Not a PostgreSQL timestamp: ${text}`);
  const [year, month, day, hours, minutes, seconds] = parts.slice(1, 7).map(Number) as number[];
  const fraction = parts[7] ?? '';
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, takes the years 0 to 99 as they are.
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hours!, minutes!, seconds!, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const offset = Number(parts[9]) * 3600 + Number(parts[10] ?? 0) * 60 + Number(parts[11] ?? 0);
  return new Date(date.getTime() - (parts[8] === '+' ? 1 : -1) * offset * 1000);
}

/** A `timestamp with time zone` column read and written as a Date, right for every year 1 to 9999. */
export const instant = customType<{ data: Date; driverData: string | Date }>({
  dataType: () => 'timestamp with time zone',
  fromDriver: (value) => (value instanceof Date ? value : instantFromPostgres(value)),
  toDriver: (value) => value.toISOString(),
});
