import { useState } from 'react';

import { Calendar } from '@/components/ui/calendar';
import { monthGrid } from '@/components/ui/calendar-days';
import { useThoughtsRange } from '@/features/thoughts/api/get-thoughts-range';
import { parseYmd } from '@/lib/local-day';
import { formatYmd } from '@/lib/format-date';

interface TimelineCalendarProps {
  id: string;
  /** The selected day, `yyyy-MM-dd`; the calendar opens on its month. */
  date: string;
  today: string;
  onSelect: (date: string) => void;
}

/** The month calendar under the day heading; days with thoughts in the 6 visible weeks are outlined. */
export function TimelineCalendar({ id, date, today, onSelect }: TimelineCalendarProps) {
  // Mounted only while open, so every opening starts on the selected day's month.
  const [month, setMonth] = useState(() => parseYmd(date));
  const weeks = monthGrid(month);
  const first = formatYmd(weeks[0]?.[0] ?? month);
  const last = formatYmd(weeks[5]?.[6] ?? month);
  const range = useThoughtsRange(first, last);
  const withThoughts = new Set(range.data?.map((thought) => thought.localDate));

  return (
    <div id={id} aria-busy={range.isPending || undefined} className="rounded-xl border bg-card p-3 shadow-sm">
      <Calendar
        month={month}
        onMonthChange={setMonth}
        selected={parseYmd(date)}
        today={parseYmd(today)}
        onSelect={(day) => onSelect(formatYmd(day))}
        onToday={() => {
          setMonth(parseYmd(today));
          onSelect(today);
        }}
        modifiers={{ 'has-thoughts': withThoughts }}
        modifierClassNames={{ 'has-thoughts': 'ring-2 ring-inset ring-accent/50' }}
      />
      {range.isError && (
        <p role="alert" className="px-1 pt-2 text-sm text-destructive dark:text-red-400">
          {range.error.message}
        </p>
      )}
    </div>
  );
}
