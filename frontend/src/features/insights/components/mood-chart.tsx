import type { MoodPoint } from '@haven/contracts/insights';

import { cn } from '@/lib/utils';

const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'narrow', timeZone: 'UTC' });

/** A small bar per day: up for a brighter mood, down for a heavier one, empty for no thoughts. */
export function MoodChart({ mood }: { mood: MoodPoint[] }) {
  const week = mood.length <= 7;
  return (
    <figure className="flex flex-col gap-1.5" aria-label="Mood by day">
      <div className="flex h-16 items-stretch gap-[2px]">
        {mood.map((p) => {
          const height = p.score === null ? 0 : Math.max(6, Math.abs(p.score) * 50);
          return (
            <div
              key={p.date}
              className="relative flex-1"
              title={`${p.date}: ${p.count} thought${p.count === 1 ? '' : 's'}${p.score === null ? '' : `, mood ${p.score.toFixed(2)}`}`}
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
      {week && (
        <div className="flex gap-[2px] text-center text-[10px] text-muted-foreground">
          {mood.map((p) => (
            <span key={p.date} className="flex-1">
              {weekday.format(new Date(`${p.date}T12:00:00Z`))}
            </span>
          ))}
        </div>
      )}
      <figcaption className="text-xs text-muted-foreground">
        Mood by day, from the words of your thoughts
      </figcaption>
    </figure>
  );
}
