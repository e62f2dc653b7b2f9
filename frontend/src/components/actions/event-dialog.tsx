import { Download } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatClock, formatWallDateTime, formatYmd } from '@/lib/format-date';
import { AccountNotice, accountProblemOf, CalendarFirstNotice, type AccountProblem } from './account-notice';
import { ActionDialog } from './action-dialog';
import { useCalendarProblem } from './calendar-account';
import { download, eventFile } from './event-file';
import { Field, selectClass } from './field';
import { useScheduleEvent, type EventDraft } from './schedule-event';

/** Every 15 minutes over 24 hours (spec 9). */
const TIMES = Array.from(
  { length: 96 },
  (_, i) => `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
);
const REMINDERS: Array<[number, string]> = [
  [0, 'None'],
  [10, '10 minutes before'],
  [30, '30 minutes before'],
  [60, '1 hour before'],
  [1440, '1 day before'],
];

/** What the dialog opens with: a suggestion's prefill, or the spec's default (today 18:00 to 19:00). */
export interface EventPrefill {
  title?: string;
  description?: string;
  start?: { date: string; time: string };
  end?: { date: string; time: string };
}

function initial(prefill: EventPrefill | undefined): EventDraft {
  const today = formatYmd(new Date());
  return {
    title: prefill?.title ?? '',
    description: prefill?.description ?? '',
    start: prefill?.start ?? { date: today, time: '18:00' },
    end: prefill?.end ?? { date: today, time: '19:00' },
    location: '',
    reminderMinutes: 30,
  };
}

/** A time select that still shows a prefilled time off the 15-minute grid. */
function TimeSelect({ id, value, onChange }: { id: string; value: string; onChange: (v: string) => void }) {
  const options = TIMES.includes(value) ? TIMES : [...TIMES, value].sort();
  return (
    <select id={id} className={selectClass} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((t) => (
        <option key={t} value={t}>
          {formatClock(t)}
        </option>
      ))}
    </select>
  );
}

interface EventDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  prefill?: EventPrefill;
  /** askBeforeCalendarEvents: confirm before creating. */
  confirm: boolean;
}

/** 'Add to Calendar': the event form of the spec, with its validation and confirmation. */
export function EventDialog({ open, onOpenChange, prefill, confirm }: EventDialogProps) {
  const [draft, setDraft] = useState<EventDraft>(() => initial(prefill));
  const [asking, setAsking] = useState(false);
  const [opened, setOpened] = useState(open);
  /** Why the calendar could not take the event, when that is the account (then the notice shows). */
  const [problem, setProblem] = useState<AccountProblem | null>(null);
  /** Known on opening: no calendar can take the event, so the dialog says so first and offers the file. */
  const known = useCalendarProblem(open);
  const schedule = useScheduleEvent({
    mutationConfig: {
      onSuccess: (_event, scheduled) => {
        toast({
          title: 'Event scheduled',
          description: `${scheduled.title}, ${formatWallDateTime(scheduled.start.date, scheduled.start.time)}`,
        });
        onOpenChange(false);
      },
      onError: (error) => {
        const cause = accountProblemOf(error);
        setProblem(cause);
        if (!cause)
          toast({
            title: 'Failed to create event',
            description: getErrorMessage(error),
            variant: 'destructive',
          });
      },
    },
  });
  if (open !== opened) {
    // Each opening starts from the prefill again.
    setOpened(open);
    if (open) {
      setDraft(initial(prefill));
      setProblem(null);
    }
  }
  const set = (patch: Partial<EventDraft>) => setDraft((d) => ({ ...d, ...patch }));

  function submit() {
    if (schedule.isPending) return;
    if (!draft.title.trim()) {
      toast({
        title: 'Title required',
        description: 'Please enter a title for your event',
        variant: 'destructive',
      });
      return;
    }
    if (confirm) setAsking(true);
    else schedule.mutate(draft);
  }

  async function saveFile() {
    try {
      download(await eventFile(draft));
    } catch (error) {
      toast({ title: 'Failed to create event', description: getErrorMessage(error), variant: 'destructive' });
    }
  }

  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add to Calendar"
      actions={
        known ? (
          <Button onClick={() => void saveFile()}>
            <Download aria-hidden />
            Download .ics
          </Button>
        ) : (
          <Button onClick={submit} aria-disabled={schedule.isPending || undefined}>
            {schedule.isPending ? 'Scheduling...' : 'Add to Calendar'}
          </Button>
        )
      }
      confirmation={{
        asking,
        onAskingChange: setAsking,
        title: 'Create this event?',
        description: `${draft.title}, ${formatWallDateTime(draft.start.date, draft.start.time)}.`,
        confirmLabel: 'Create Event',
        onConfirm: () => schedule.mutate(draft),
      }}
    >
      {known && !problem && <CalendarFirstNotice problem={known} />}
      <Field label="Title">
        {(id) => <Input id={id} value={draft.title} onChange={(e) => set({ title: e.target.value })} />}
      </Field>
      <Field label="Description">
        {(id) => (
          <Textarea
            id={id}
            rows={3}
            value={draft.description}
            onChange={(e) => set({ description: e.target.value })}
          />
        )}
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Start date">
          {(id) => (
            <Input
              id={id}
              type="date"
              value={draft.start.date}
              onChange={(e) => set({ start: { ...draft.start, date: e.target.value } })}
            />
          )}
        </Field>
        <Field label="Start time">
          {(id) => (
            <TimeSelect
              id={id}
              value={draft.start.time}
              onChange={(time) => set({ start: { ...draft.start, time } })}
            />
          )}
        </Field>
        <Field label="End date">
          {(id) => (
            <Input
              id={id}
              type="date"
              value={draft.end.date}
              onChange={(e) => set({ end: { ...draft.end, date: e.target.value } })}
            />
          )}
        </Field>
        <Field label="End time">
          {(id) => (
            <TimeSelect
              id={id}
              value={draft.end.time}
              onChange={(time) => set({ end: { ...draft.end, time } })}
            />
          )}
        </Field>
      </div>
      <Field label="Location">
        {(id) => <Input id={id} value={draft.location} onChange={(e) => set({ location: e.target.value })} />}
      </Field>
      <Field label="Reminder">
        {(id) => (
          <select
            id={id}
            className={selectClass}
            value={draft.reminderMinutes}
            onChange={(e) => set({ reminderMinutes: Number(e.target.value) })}
          >
            {REMINDERS.map(([minutes, label]) => (
              <option key={minutes} value={minutes}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {problem && (
        <AccountNotice problem={problem} type="calendar">
          <Button variant="outline" size="sm" onClick={() => void saveFile()}>
            <Download aria-hidden />
            Download .ics
          </Button>
        </AccountNotice>
      )}
    </ActionDialog>
  );
}
