import { formatTimeOfDay } from '@/lib/format-date';

/** The units a relative time is told in, and the words English has for the step either side. */
export type Unit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';
const NAMED: Partial<Record<Unit, readonly [string, string, string]>> = {
  day: ['yesterday', 'today', 'tomorrow'],
  week: ['last week', 'this week', 'next week'],
  month: ['last month', 'this month', 'next month'],
  year: ['last year', 'this year', 'next year'],
};

/**
 * What Intl.RelativeTimeFormat('en-US', { numeric: 'auto' }) writes, without building one (the first
 * Intl formatter a page builds costs a phone tens of milliseconds; relative-time.test.ts compares).
 */
export function phrase(value: number, unit: Unit): string {
  const named = NAMED[unit];
  if (value === 0) return unit === 'second' ? 'now' : (named?.[1] ?? `this ${unit}`);
  if (named && Math.abs(value) === 1) return named[value < 0 ? 0 : 2];
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  const count = `${digits} ${unit}${Math.abs(value) === 1 ? '' : 's'}`;
  return value < 0 ? `${count} ago` : `in ${count}`;
}

const STEPS: Array<[Unit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** 'just now', '5 minutes ago', 'yesterday', '3 weeks ago'. */
export function relativeTime(iso: string, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  if (Math.abs(value) < 45) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return phrase(Math.round(value), unit);
    value /= size;
  }
  return phrase(Math.round(value), 'year');
}

/** '3:05 PM'. */
export const timeOf = (iso: string) => formatTimeOfDay(new Date(iso));
