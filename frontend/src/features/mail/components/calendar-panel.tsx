import type { CalendarEvent } from '@haven/contracts/calendar';
import { Link } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatTimeOfDay, formatWeekdayMonthDay } from '@/lib/format-date';
import { parseYmd } from '@/lib/local-day';
import { useDeferredQuery } from '@/lib/deferred-query';
import { useCalendar, useRsvp } from '../api/digest';
import { connectClass } from './email-panel';

/** 'Mon, Nov 23, 3:05 PM', or 'Mon, Nov 23' for an all-day event. */
function startOf(event: CalendarEvent): string {
  if (event.start.dateTime) {
    const at = new Date(event.start.dateTime);
    return `${formatWeekdayMonthDay(at)}, ${formatTimeOfDay(at)}`;
  }
  return event.start.date ? formatWeekdayMonthDay(parseYmd(event.start.date)) : '';
}

function Invitation({ event }: { event: CalendarEvent }) {
  const answer = useRsvp({
    mutationConfig: {
      onSuccess: (_, { response }) =>
        toast({ title: response === 'accepted' ? 'Invitation accepted' : 'Invitation declined' }),
      onError: (error) =>
        toast({ title: 'RSVP failed', description: getErrorMessage(error), variant: 'destructive' }),
    },
  });
  const organiser = event.organizer?.displayName || event.organizer?.email;
  return (
    <li className="flex flex-col gap-1.5 border-b border-border py-2 last:border-b-0">
      <span className="truncate text-sm font-medium">{event.summary}</span>
      <span className="truncate text-xs text-muted-foreground">
        {[startOf(event), event.location, organiser && `from ${organiser}`].filter(Boolean).join(' · ')}
      </span>
      <span className="flex gap-2">
        <Button
          size="sm"
          disabled={answer.isPending}
          onClick={() => answer.mutate({ id: event.id, response: 'accepted' })}
        >
          Accept
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={answer.isPending}
          onClick={() => answer.mutate({ id: event.id, response: 'declined' })}
        >
          Decline
        </Button>
      </span>
    </li>
  );
}

/** Panel 1: invitations waiting for an answer, answered from here. */
export function CalendarPanel() {
  const { data, isPending, isError } = useDeferredQuery(useCalendar());
  if (isPending)
    return (
      <div className="flex flex-col gap-2" aria-label="Loading invitations">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  if (isError) return <p className="text-sm text-destructive">Failed to load calendar events</p>;
  if (!data.connected)
    return (
      <>
        <p className="text-sm text-muted-foreground">
          Connect your calendar to answer invitations from here.
        </p>
        <Link to={paths.integrations.getHref()} className={connectClass}>
          Connect Calendar
        </Link>
      </>
    );
  if (data.events.length === 0)
    return <p className="text-sm text-muted-foreground">No invitations waiting for you</p>;
  return (
    <ul className="flex min-h-0 flex-1 flex-col overflow-y-auto" aria-label="Invitations">
      {data.events.map((event) => (
        <Invitation key={event.id} event={event} />
      ))}
    </ul>
  );
}
