import type { Thought } from '@haven/contracts/thoughts';

import { formatShortDay, formatTimeOfDay } from '@/components/thoughts/thought-format';
import { useOnThisDay } from '@/features/thoughts/api/get-on-this-day';
import { CompactThought } from '@/features/thoughts/components/compact-thought';

/** '1 year ago', '3 years ago'. */
export function yearsAgoLabel(years: number): string {
  return years === 1 ? '1 year ago' : `${years} years ago`;
}

/**
 * "On this day": what the user wrote on the selected day's month and day in earlier years, grouped
 * by year (most recent first), each entry opening the Edit Thought dialog. Nothing at all shows
 * while it loads, when it fails, or when there is nothing, so the day reads as before.
 */
export function OnThisDay({ date, onOpen }: { date: string; onOpen: (thought: Thought) => void }) {
  const earlier = useOnThisDay(date);
  if (!earlier.data || earlier.data.length === 0) return null;
  const year = Number(date.slice(0, 4));
  const byYear = new Map<number, Thought[]>();
  for (const thought of earlier.data) {
    const own = Number(thought.localDate.slice(0, 4));
    byYear.set(own, [...(byYear.get(own) ?? []), thought]);
  }
  return (
    <section aria-labelledby="on-this-day-heading" className="flex flex-col gap-3">
      <h2 id="on-this-day-heading" className="text-lg font-semibold tracking-tight">
        On this day
      </h2>
      {[...byYear]
        .sort((a, b) => b[0] - a[0])
        .map(([own, thoughts]) => (
          <section key={own} aria-labelledby={`on-this-day-${own}`} className="flex flex-col gap-2">
            <h3 id={`on-this-day-${own}`} className="text-sm font-semibold text-muted-foreground">
              {yearsAgoLabel(year - own)}
              <span className="font-normal"> · {formatShortDay(thoughts[0]!.localDate)}</span>
            </h3>
            <ul className="flex flex-col gap-2">
              {thoughts.map((thought) => (
                <li key={thought.id}>
                  <CompactThought thought={thought} onOpen={onOpen} when={formatTimeOfDay(thought.date)} />
                </li>
              ))}
            </ul>
          </section>
        ))}
    </section>
  );
}
