import { Download } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatWallDateTime, formatYmd } from '@/lib/format-date';
import { AccountNotice, accountProblemOf, CalendarFirstNotice, type AccountProblem } from './account-notice';
import { ActionDialog } from './action-dialog';
import { useCalendarProblem } from './calendar-account';
import { download, eventFile } from './event-file';
import { EventFields } from './event-fields';
import { useScheduleEvent, type EventDraft } from './schedule-event';

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
      <EventFields draft={draft} onChange={set} />
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
