import { CalendarClock } from 'lucide-react';
import { useId, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  entryDateLabel,
  entryInstant,
  timeInputValue,
  type EntryDate,
} from '@/features/thoughts/lib/entry-date';
import { formatYmd } from '@/lib/format-date';

interface CaptureDateProps {
  /** The picked date, or null for now. */
  value: EntryDate | null;
  onChange: (value: EntryDate | null) => void;
}

/**
 * The entry's date as a chip ('Today, 6:42 PM'); tapping it opens a date and a time input in place,
 * so an entry can be written for another day.
 */
export function CaptureDate({ value, onChange }: CaptureDateProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const dateId = useId();
  const timeId = useId();
  const shown = entryInstant(value);
  const current = value ?? { day: formatYmd(shown), time: timeInputValue(shown) };

  return (
    <div className="flex flex-col gap-2">
      <Button
        variant="outline"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        className="h-11 self-start rounded-full px-3.5 font-normal"
      >
        <CalendarClock aria-hidden="true" />
        <span className="sr-only">Entry date: </span>
        {entryDateLabel(shown)}
      </Button>
      {open && (
        <div
          id={panelId}
          role="group"
          aria-label="Entry date and time"
          className="flex flex-wrap items-end gap-2 rounded-lg border bg-muted/40 p-2"
        >
          <div className="flex min-w-36 flex-1 flex-col gap-1">
            <Label htmlFor={dateId} className="text-xs">
              Date
            </Label>
            <Input
              id={dateId}
              type="date"
              required
              value={current.day}
              onChange={(event) => event.target.value && onChange({ ...current, day: event.target.value })}
            />
          </div>
          <div className="flex min-w-28 flex-1 flex-col gap-1">
            <Label htmlFor={timeId} className="text-xs">
              Time
            </Label>
            <Input
              id={timeId}
              type="time"
              required
              value={current.time}
              onChange={(event) => event.target.value && onChange({ ...current, time: event.target.value })}
            />
          </div>
          <div className="flex w-full justify-end gap-2">
            <Button variant="ghost" className="h-11" onClick={() => onChange(null)}>
              Now
            </Button>
            <Button variant="outline" className="h-11" onClick={() => setOpen(false)}>
              Done
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
