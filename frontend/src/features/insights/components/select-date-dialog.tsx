import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Calendar } from '@/components/ui/calendar';
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

interface SelectDateDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  date: string;
  onSelect: (date: string) => void;
}

/** 'Select Date': a single-date calendar; picking a day selects it and closes the dialog. */
export function SelectDateDialog({ open, onOpenChange, date, onSelect }: SelectDateDialogProps) {
  const [month, setMonth] = useState(() => parseYmd(date));
  const [picked, setPicked] = useState<Date | undefined>(() => parseYmd(date));
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
          weekStartsOn={1}
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
