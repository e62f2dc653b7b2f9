import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Calendar } from '@/components/ui/calendar';
import { monthGrid } from '@/components/ui/calendar-days';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { formatYmd } from '@/lib/format-date';
import { parseYmd } from '@/lib/local-day';

/** The query (from the app) for the thoughts of an inclusive day range; only their days are read. */
export type DaysWithThoughtsQuery = (
  startDate: string,
  endDate: string,
) => {
  queryKey: readonly unknown[];
  queryFn: () => Promise<ReadonlyArray<{ localDate: string }>>;
};

interface SelectDateDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  date: string;
  onSelect: (date: string) => void;
  daysWithThoughts?: DaysWithThoughtsQuery | undefined;
}

const WEEK_STARTS_ON = 1;
const NO_DAYS: ReadonlySet<string> = new Set();

/**
 * 'Select Date': a single-date calendar; picking a day selects it and closes the dialog. Days with
 * thoughts in the six weeks on show are outlined, as in the timeline's calendar.
 */
export function SelectDateDialog({
  open,
  onOpenChange,
  date,
  onSelect,
  daysWithThoughts,
}: SelectDateDialogProps) {
  const [month, setMonth] = useState(() => parseYmd(date));
  const [picked, setPicked] = useState<Date | undefined>(() => parseYmd(date));
  const weeks = monthGrid(month, WEEK_STARTS_ON);
  const first = formatYmd(weeks[0]?.[0] ?? month);
  const last = formatYmd(weeks[5]?.[6] ?? month);
  const marked = useQuery({
    ...(daysWithThoughts?.(first, last) ?? { queryKey: ['no-days', first, last], queryFn: () => [] }),
    enabled: open && daysWithThoughts !== undefined,
    select: (thoughts: ReadonlyArray<{ localDate: string }>) => new Set(thoughts.map((t) => t.localDate)),
  });
  const use = (day: Date | undefined) => {
    if (!day) return;
    onSelect(formatYmd(day));
    onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent showCloseButton className="max-w-sm">
        <DialogHeader>
          <DialogTitle>Select Date</DialogTitle>
        </DialogHeader>
        <Calendar
          month={month}
          onMonthChange={setMonth}
          selected={picked}
          today={new Date()}
          weekStartsOn={WEEK_STARTS_ON}
          modifiers={{ 'has-thoughts': marked.data ?? NO_DAYS }}
          modifierClassNames={{ 'has-thoughts': 'ring-2 ring-inset ring-accent/50' }}
          onSelect={(day) => {
            setPicked(day);
            use(day);
          }}
        />
        <DialogFooter className="flex-row justify-end">
          <DialogClose>Cancel</DialogClose>
          <Button disabled={!picked} onClick={() => use(picked)}>
            Use Selected Date
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
