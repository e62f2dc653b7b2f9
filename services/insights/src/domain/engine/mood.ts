import Sentiment from 'sentiment';
import type { MoodPoint } from '@haven/contracts/insights';
import type { PeriodInput } from './types';

const sentiment = new Sentiment();

/** Days from `start` to `end` inclusive, as `yyyy-MM-dd`. */
export function daysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  for (
    let d = new Date(`${start}T00:00:00Z`);
    d <= new Date(`${end}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1)
  ) {
    days.push(d.toISOString().slice(0, 10));
  }
  return days;
}

/**
 * The mood of each day of a week or month: the AFINN sentiment of that day's thoughts (the mean of
 * each thought's score per word), mapped to −1..1 by tanh(3x) so ordinary entries (±0.1–0.3 per
 * word) stay visible and strong ones saturate; null on a day without thoughts.
 */
export function moodOf(period: PeriodInput): MoodPoint[] {
  const byDay = new Map<string, number[]>();
  for (const t of period.thoughts) {
    const scores = byDay.get(t.localDate) ?? [];
    scores.push(sentiment.analyze(t.content).comparative);
    byDay.set(t.localDate, scores);
  }
  return daysBetween(period.start, period.end).map((date) => {
    const scores = byDay.get(date);
    if (!scores) return { date, score: null, count: 0 };
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    return { date, score: Math.round(Math.tanh(3 * mean) * 100) / 100, count: scores.length };
  });
}
