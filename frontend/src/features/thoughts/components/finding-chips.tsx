import type { ThoughtFinding } from '@haven/contracts/insights';
import { CalendarPlus, Mail } from 'lucide-react';
import { useState } from 'react';

import { ComposeEmailDialog } from '@/components/actions/compose-email-dialog';
import { EventDialog } from '@/components/actions/event-dialog';
import { Button } from '@/components/ui/button';
import { formatWallDateTime } from '@/lib/format-date';

/** Whether the user's preferences ask for a confirmation before creating an event or sending mail. */
export interface ConfirmActions {
  events: boolean;
  emails: boolean;
}

/** Like 'Thu, Nov 26, 3:00 PM' (or '…, 15:00') for an event start (a wall-clock date and time, no zone). */
export function formatEventStart(start: { date: string; time: string }): string {
  return formatWallDateTime(start.date, start.time);
}

/** A name is not an address: the To field is left for the user rather than filled with "Tom". */
const looksLikeAddress = (to: string | undefined) =>
  to && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to) ? to : undefined;

const chipClass =
  'h-auto min-h-11 max-w-full rounded-full border-accent/30 bg-accent-soft px-3.5 py-2 text-sm whitespace-normal text-accent hover:bg-accent/15 dark:border-accent/40';

/** The finding's event when it is not in the past (`today` is `yyyy-MM-dd`). */
const upcomingEvent = (finding: ThoughtFinding, today: string) => {
  const calendar = finding.prefill.calendar;
  return calendar && calendar.start.date >= today ? calendar : undefined;
};

/** Whether a finding gives its card any action to show today. */
export function offersActions(finding: ThoughtFinding | undefined, today: string): finding is ThoughtFinding {
  return !!finding && (!!upcomingEvent(finding, today) || !!finding.prefill.email);
}

/**
 * The actions a thought's card offers from what the local engine found in it: "Add to calendar · Thu
 * 26 Nov 15:00" opens the event dialog with that date and time, "Draft e-mail to Tom" the e-mail
 * dialog with a first draft. A calendar finding in the past (before `today`) is left out.
 */
export function FindingChips({
  finding,
  today,
  confirm,
}: {
  finding: ThoughtFinding;
  /** `yyyy-MM-dd`: events before it are not offered. */
  today: string;
  confirm: ConfirmActions;
}) {
  const [dialog, setDialog] = useState<'event' | 'email' | null>(null);
  const event = upcomingEvent(finding, today);
  const email = finding.prefill.email;
  if (!event && !email) return null;

  return (
    <>
      {event && (
        <Button variant="outline" className={chipClass} onClick={() => setDialog('event')}>
          <CalendarPlus aria-hidden="true" />
          {`Add to calendar · ${formatEventStart(event.start)}`}
        </Button>
      )}
      {email && (
        <Button variant="outline" className={chipClass} onClick={() => setDialog('email')}>
          <Mail aria-hidden="true" />
          {email.name || email.to ? `Draft e-mail to ${email.name ?? email.to}` : 'Draft e-mail'}
        </Button>
      )}
      {event && (
        <EventDialog
          open={dialog === 'event'}
          onOpenChange={(open) => !open && setDialog(null)}
          prefill={{ title: event.title, start: event.start, end: event.end }}
          confirm={confirm.events}
        />
      )}
      {email && (
        <ComposeEmailDialog
          kind="action"
          open={dialog === 'email'}
          onOpenChange={(open) => !open && setDialog(null)}
          prefill={{ to: looksLikeAddress(email.to), subject: email.subject, body: email.body }}
          confirm={confirm.emails}
        />
      )}
    </>
  );
}
