import type { Thought } from '@haven/contracts/thoughts';
import { useState } from 'react';

import { DayThoughts } from '@/features/thoughts/components/day-thoughts';
import { EditThoughtDialog } from '@/features/thoughts/components/edit-thought-dialog';
import type { ConfirmActions } from '@/features/thoughts/components/finding-chips';
import { OnThisDay } from '@/features/thoughts/components/on-this-day';
import { useSearchOverlay } from '@/features/thoughts/hooks/use-search-overlay';

interface HomeDayThoughtsProps {
  date: string;
  today: string;
  confirm: ConfirmActions;
}

/**
 * The selected day's thoughts under the Daily insight on /home, as the timeline lists them: a card
 * opens the Edit Thought dialog and a tag chip the shell's search, filtered by that tag; under them,
 * what was written on the same date in earlier years ("On this day"). Loaded as a chunk of its own once the insight has drawn (see
 * insights.tsx), so the cards and the Markdown renderer behind them stay off the first render.
 */
export function HomeDayThoughts({ date, today, confirm }: HomeDayThoughtsProps) {
  const [editing, setEditing] = useState<Thought | null>(null);
  const search = useSearchOverlay();
  return (
    <>
      <DayThoughts
        date={date}
        today={today}
        onOpen={setEditing}
        onTag={search.show}
        confirm={confirm}
        emptyState={
          <p className="text-sm text-muted-foreground">
            {date === today ? 'Thoughts you capture today show here.' : 'No thoughts on this day.'}
          </p>
        }
      />
      <OnThisDay date={date} onOpen={setEditing} />
      <EditThoughtDialog thought={editing} onClose={() => setEditing(null)} />
    </>
  );
}
