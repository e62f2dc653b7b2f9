import { ChevronDown, ChevronLeft, ChevronRight } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { parseYmd } from '@/lib/local-day';
import { formatLongDate } from '@/lib/format-date';
import { cn } from '@/lib/utils';

interface DayNavigatorProps {
  date: string;
  onStep: (days: number) => void;
  calendarOpen: boolean;
  onToggleCalendar: () => void;
  /** Id of the calendar the heading button opens (`aria-controls`). */
  calendarId: string;
}

/** Previous / next day arrows around the day's heading, which toggles the month calendar. */
export function DayNavigator({
  date,
  onStep,
  calendarOpen,
  onToggleCalendar,
  calendarId,
}: DayNavigatorProps) {
  // 'Monday, January 5, 2025' is the button's name; it shows as the weekday over the date.
  const label = formatLongDate(parseYmd(date));
  const [weekday, ...monthDayYear] = label.split(', ');
  return (
    <div className="flex items-center gap-1 rounded-xl border bg-card p-1 shadow-sm">
      <Button
        variant="ghost"
        size="icon"
        aria-label="Previous day"

        onClick={() => onStep(-1)}
      >
        <ChevronLeft aria-hidden="true" className="!size-5" />
      </Button>
      <Button
        variant="ghost"
        aria-label={label}
        aria-expanded={calendarOpen}
        aria-controls={calendarId}
        onClick={onToggleCalendar}
        className="h-auto min-w-0 flex-1 flex-col gap-0 px-2 py-1.5"
      >
        {/* Two lines so even 'Wednesday, September 30, 2026' fits a phone without losing the year. */}
        <span className="text-xs font-medium text-muted-foreground">{weekday}</span>{' '}
        <span className="flex items-center gap-1 text-base leading-tight font-semibold">
          {monthDayYear.join(', ')}
          <ChevronDown
            aria-hidden="true"
            className={cn('text-muted-foreground transition-transform', calendarOpen && 'rotate-180')}
          />
        </span>
      </Button>
      <Button variant="ghost" size="icon" aria-label="Next day" onClick={() => onStep(1)}>
        <ChevronRight aria-hidden="true" className="!size-5" />
      </Button>
    </div>
  );
}
