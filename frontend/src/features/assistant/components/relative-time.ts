import { formatTimeOfDay } from '@/lib/format-date';
import { onFirstUse } from '@/lib/on-first-use';

const rtf = onFirstUse(() => new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' }));
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
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
    if (Math.abs(value) < size) return rtf().format(Math.round(value), unit);
    value /= size;
  }
  return rtf().format(Math.round(value), 'year');
}

/** '3:05 PM'. */
export const timeOf = (iso: string) => formatTimeOfDay(new Date(iso));
