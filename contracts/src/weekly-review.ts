/*
 * The weeks of the weekly review, shared by the assistant service and the SPA so each rule is
 * written once. Weeks run Monday to Sunday, as the insights views count them; days are `yyyy-MM-dd`.
 */

import { MONTHS, WEEKDAYS } from './english-dates';

const DAY_MS = 86_400_000;
const toDate = (localDate: string) => new Date(`${localDate}T00:00:00Z`);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The day `days` after `localDate` (negative for before). */
export const addDays = (localDate: string, days: number) =>
  isoDay(new Date(toDate(localDate).getTime() + days * DAY_MS));

/** The Monday of the week containing `localDate`. */
export function weekStartOf(localDate: string): string {
  const day = toDate(localDate).getUTCDay();
  return addDays(localDate, -((day + 6) % 7));
}

/** "November 16" for a UTC midnight. */
const monthDay = (d: Date) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;

/** "November 16 – 22", or "November 30 – December 6" across months, for the week containing `localDate`. */
export function weekLabel(localDate: string): string {
  const weekStart = weekStartOf(localDate);
  const start = toDate(weekStart);
  const end = toDate(addDays(weekStart, 6));
  const endLabel = start.getUTCMonth() === end.getUTCMonth() ? String(end.getUTCDate()) : monthDay(end);
  return `${monthDay(start)} – ${endLabel}`;
}

/**
 * The week a review on `today` looks back at: the week ending that weekend on Saturday and Sunday,
 * else the week just gone (a Monday review is of last week, not of a day-old one). Any day inside it.
 */
export function weekToReview(today: string): string {
  const day = toDate(today).getUTCDay();
  return day === 0 || day === 6 ? today : addDays(weekStartOf(today), -7);
}

/** The days a review can be set on, as `Date.getDay()` numbers them. */
export const REVIEW_DAYS = WEEKDAYS;
