import type { Thought } from '@haven/contracts/thoughts';
import { useId, useState } from 'react';

import { EditThoughtDialog } from '@/features/thoughts/components/edit-thought-dialog';
import { DayNavigator } from '@/features/thoughts/components/day-navigator';
import { DayThoughts } from '@/features/thoughts/components/day-thoughts';
import type { ConfirmActions } from '@/features/thoughts/components/finding-chips';
import { TimelineCalendar } from '@/features/thoughts/components/timeline-calendar';
import { useSearchOverlay } from '@/features/thoughts/hooks/use-search-overlay';
import { shiftYmd } from '@/lib/local-day';

interface TimelineProps {
  /** The selected day, `yyyy-MM-dd`. */
  date: string;
  today: string;
  onDateChange: (date: string) => void;
  /** The user's confirmation preferences, for the actions on the cards. */
  confirm: ConfirmActions;
}

/** Day-by-day browsing: the day heading with its calendar, that day's thoughts, and editing them. */
export function Timeline({ date, today, onDateChange, confirm }: TimelineProps) {
  const calendarId = useId();
  const [calendarOpen, setCalendarOpen] = useState(false);
  const [editing, setEditing] = useState<Thought | null>(null);
  // A tag chip opens the shell's search, filtered by that tag.
  const search = useSearchOverlay();

  function goTo(next: string) {
    setCalendarOpen(false);
    if (next === date) return;
    onDateChange(next);
    window.scrollTo({ top: 0 });
  }

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-3">
        <DayNavigator
          date={date}
          onStep={(days) => goTo(shiftYmd(date, days))}
          calendarOpen={calendarOpen}
          onToggleCalendar={() => setCalendarOpen((open) => !open)}
          calendarId={calendarId}
        />
        {calendarOpen && <TimelineCalendar id={calendarId} date={date} today={today} onSelect={goTo} />}
      </div>
      <DayThoughts date={date} today={today} onOpen={setEditing} onTag={search.show} confirm={confirm} />
      <EditThoughtDialog thought={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
