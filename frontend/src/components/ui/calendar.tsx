import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useId, type KeyboardEvent } from 'react';

import { Button } from '@/components/ui/button';
import {
  addDays,
  addMonths,
  formatFullDate,
  isSameDay,
  isSameMonth,
  monthGrid,
  weekdayNames,
  type WeekStart,
} from '@/components/ui/calendar-days';
import { formatMonthYear, formatYmd } from '@/lib/format-date';
import { cn } from '@/lib/utils';

interface CalendarProps {
  /** Any day of the month on show. */
  month: Date;
  onMonthChange: (month: Date) => void;
  selected?: Date | undefined;
  onSelect: (day: Date) => void;
  /** Shows a 'Today' button calling this. */
  onToday?: () => void;
  /** Defaults to now; injectable so a screen and its calendar agree on "today". */
  today?: Date;
  weekStartsOn?: WeekStart;
  /**
   * Named sets of days (yyyy-MM-dd). A matching day button gets `data-{name}` and the class in
   * `modifierClassNames[name]`, e.g. `{ 'has-thoughts': days }` to outline days with entries.
   */
  modifiers?: Record<string, ReadonlySet<string>>;
  modifierClassNames?: Record<string, string>;
  className?: string;
}

const ARROW_STEPS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };

/** A month grid for picking one day: 6 rows, arrow keys move between days, outside days dimmed. */
export function Calendar({
  month,
  onMonthChange,
  selected,
  onSelect,
  onToday,
  today = new Date(),
  weekStartsOn = 0,
  modifiers = {},
  modifierClassNames = {},
  className,
}: CalendarProps) {
  const labelId = useId();
  const weeks = monthGrid(month, weekStartsOn);
  const days = weeks.flat();
  const tabbable =
    days.find((d) => selected && isSameDay(d, selected)) ??
    days.find((d) => isSameDay(d, today)) ??
    new Date(month.getFullYear(), month.getMonth(), 1);

  function onKeyDown(event: KeyboardEvent<HTMLTableSectionElement>) {
    const step = ARROW_STEPS[event.key];
    const from = (event.target as HTMLElement).dataset.day;
    if (step === undefined || !from) return;
    event.preventDefault();
    const [y = 0, m = 1, d = 1] = from.split('-').map(Number);
    const target = formatYmd(addDays(new Date(y, m - 1, d), step));
    event.currentTarget.querySelector<HTMLElement>(`[data-day="${target}"]`)?.focus();
  }

  return (
    <div className={cn('flex flex-col gap-3', className)}>
      <div className="flex items-center gap-1">
        <h2 id={labelId} aria-live="polite" className="flex-1 pl-1 text-base font-semibold">
          {formatMonthYear(month)}
        </h2>
        {onToday && (
          <Button variant="outline" size="sm" onClick={onToday} className="mr-1">
            Today
          </Button>
        )}
        <Button
          variant="ghost"
          size="icon"
          aria-label="Previous month"
          onClick={() => onMonthChange(addMonths(month, -1))}
        >
          <ChevronLeft aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Next month"
          onClick={() => onMonthChange(addMonths(month, 1))}
        >
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
      <table role="grid" aria-labelledby={labelId} className="w-full table-fixed border-collapse">
        <thead>
          <tr>
            {weekdayNames(weekStartsOn).map((name) => (
              <th key={name} scope="col" className="pb-1 text-xs font-medium text-muted-foreground">
                <span aria-hidden="true">{name[0]}</span>
                <span className="sr-only">{name}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody onKeyDown={onKeyDown}>
          {weeks.map((week) => (
            <tr key={formatYmd(week[0] ?? month)}>
              {week.map((day) => {
                const ymd = formatYmd(day);
                const isSelected = selected !== undefined && isSameDay(day, selected);
                const isToday = isSameDay(day, today);
                const outside = !isSameMonth(day, month);
                const matched = Object.keys(modifiers).filter((name) => modifiers[name]?.has(ymd));
                return (
                  <td key={ymd} role="gridcell" aria-selected={isSelected} className="p-0.5 text-center">
                    <button
                      type="button"
                      aria-label={formatFullDate(day)}
                      aria-current={isSelected ? 'date' : undefined}
                      tabIndex={isSameDay(day, tabbable) ? 0 : -1}
                      data-day={ymd}
                      data-selected={isSelected || undefined}
                      data-today={isToday || undefined}
                      data-outside={outside || undefined}
                      {...Object.fromEntries(matched.map((name) => [`data-${name}`, '']))}
                      onClick={() => onSelect(day)}
                      className={cn(
                        'mx-auto flex size-11 items-center justify-center rounded-full text-sm tabular-nums transition-colors outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-background',
                        outside && 'text-muted-foreground/45',
                        isToday && 'font-bold',
                        isToday && !isSelected && 'text-accent',
                        ...matched.map((name) => modifierClassNames[name]),
                        isSelected && 'bg-accent text-accent-foreground hover:bg-accent/90',
                      )}
                    >
                      {day.getDate()}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
