import type { MoodPoint } from '@haven/contracts/insights';

import { cn } from '@/lib/utils';
import { formatMonthDay, formatWeekday } from '@/lib/format-date';
import { parseYmd } from '@/lib/local-day';

// Points are calendar days (`yyyy-MM-dd`), read as local calendar days.
const fullDay = (date: Date) => `${formatWeekday(date)}, ${formatMonthDay(date)}`;

/** Scores this far from zero read as a brighter or heavier day; closer ones as even. */
const LEANING = 0.15;

/** The mood of a day in words, for the table that screen readers read instead of the bars. */
function moodInWords({ score }: MoodPoint): string {
  if (score === null) return 'No thoughts';
  if (score >= LEANING) return 'Brighter';
  if (score <= -LEANING) return 'Heavier';
  return 'Even';
}

/** The label under each bar: every weekday for a week; for a month, every seventh day from the first. */
function dayLabel(point: MoodPoint, index: number, week: boolean): string {
  if (week) return formatWeekday(parseYmd(point.date), 'short');
  return index % 7 === 0 ? String(parseYmd(point.date).getDate()) : '';
}

/**
 * A small bar per day: up for a brighter mood, down for a heavier one, empty for no thoughts, with
 * the days named underneath. Screen readers get the same as a table (day, mood, thoughts).
 */
export function MoodChart({ mood }: { mood: MoodPoint[] }) {
  const week = mood.length <= 7;
  return (
    <figure className="flex flex-col gap-1.5" aria-label="Mood by day">
      <div aria-hidden="true" className="flex h-16 items-stretch gap-[2px]">
        {mood.map((p) => {
          const height = p.score === null ? 0 : Math.max(6, Math.abs(p.score) * 50);
          return (
            <div
              key={p.date}
              className="relative flex-1"
              title={`${fullDay(parseYmd(p.date))}: ${p.count} thought${p.count === 1 ? '' : 's'}${p.score === null ? '' : `, mood ${p.score.toFixed(2)}`}`}
            >
              <div className="absolute inset-x-0 top-1/2 h-px bg-border" />
              {p.score !== null && (
                <div
                  className={cn(
                    'absolute inset-x-[15%] rounded-sm',
                    p.score >= 0
                      ? 'bg-emerald-500/80 dark:bg-emerald-400/80'
                      : 'bg-amber-500/80 dark:bg-amber-400/80',
                  )}
                  style={
                    p.score >= 0
                      ? { bottom: '50%', height: `${height}%` }
                      : { top: '50%', height: `${height}%` }
                  }
                />
              )}
            </div>
          );
        })}
      </div>
      <div
        aria-hidden="true"
        data-testid="mood-day-labels"
        className="flex gap-[2px] text-center text-[10px] leading-none text-muted-foreground"
      >
        {mood.map((p, index) => (
          // A month's label may be wider than its day's column: it overflows both ways, centred.
          <span
            key={p.date}
            className="flex min-w-0 flex-1 justify-center overflow-visible whitespace-nowrap"
          >
            {dayLabel(p, index, week)}
          </span>
        ))}
      </div>
      {/* A table ignores the 1px width of sr-only and stretched the page sideways: its box holds it. */}
      <div className="sr-only">
        <table>
          <caption>Mood and number of thoughts for each day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Mood</th>
              <th scope="col">Thoughts</th>
            </tr>
          </thead>
          <tbody>
            {mood.map((p) => (
              <tr key={p.date}>
                <th scope="row">{fullDay(parseYmd(p.date))}</th>
                <td>{moodInWords(p)}</td>
                <td>{p.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <figcaption className="text-xs text-muted-foreground">
        Mood by day, from the words of your thoughts
      </figcaption>
    </figure>
  );
}
