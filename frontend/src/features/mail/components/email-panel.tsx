import type { EmailItem, NudgeDraft } from '@haven/contracts/mail';
import { ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';

import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { formatMonthDay, formatTimeOfDay } from '@/lib/format-date';
import { useDeferredQuery } from '@/lib/deferred-query';
import { useEmails } from '../api/digest';
import { WaitingList } from './waiting-list';

const shortDate = (iso: string) => {
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString()
    ? formatTimeOfDay(date)
    : formatMonthDay(date, 'short');
};

export const connectClass = cn(buttonVariants({ size: 'sm' }), 'self-start');

const statClass = 'flex min-w-0 flex-1 flex-col rounded-lg bg-muted px-3 py-2';

/** A count with its label; with `onOpen` (and a count above 0) a button named 'label, count'. */
function Stat({ value, label, onOpen }: { value: number; label: string; onOpen?: () => void }) {
  const text = <span className="truncate text-xs text-muted-foreground">{label}</span>;
  if (!onOpen || value === 0)
    return (
      <div className={statClass}>
        <span className="text-xl leading-tight font-semibold tabular-nums">{value}</span>
        {text}
      </div>
    );
  return (
    <button
      type="button"
      aria-label={`${label}, ${value}`}
      onClick={onOpen}
      className={cn(
        statClass,
        'text-left transition-colors hover:bg-muted/70 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
      )}
    >
      <span className="flex items-center justify-between gap-1">
        <span className="text-xl leading-tight font-semibold tabular-nums">{value}</span>
        <ChevronRight aria-hidden className="size-4 text-muted-foreground" />
      </span>
      {text}
    </button>
  );
}

/**
 * Panel 0: what is new since yesterday and what needs an answer; an item opens the e-mail, and
 * 'Need a response' starts the reply queue. Questions the user is still waiting on come first,
 * each with a nudge.
 */
export function EmailPanel({
  onOpen,
  onStartQueue,
  onNudge,
}: {
  onOpen: (email: EmailItem) => void;
  onStartQueue: () => void;
  onNudge: (nudge: NudgeDraft) => void;
}) {
  const { data, isPending, isError } = useDeferredQuery(useEmails());
  if (isPending)
    return (
      <div className="flex flex-col gap-2" aria-label="Loading emails">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  if (isError) return <p className="text-sm text-destructive">Failed to load emails</p>;
  if (!data.connected)
    return (
      <>
        <p className="text-sm text-muted-foreground">
          Connect your mail to see what is new since yesterday and what needs an answer.
        </p>
        <Link to={paths.integrations.getHref()} className={connectClass}>
          Connect Gmail
        </Link>
      </>
    );
  return (
    <>
      <div className="flex gap-2">
        <Stat value={data.stats.newSinceYesterday} label="New since yesterday" />
        <Stat value={data.stats.needingResponse} label="Need a response" onOpen={onStartQueue} />
      </div>
      <WaitingList onNudge={onNudge} />
      {data.emails.length === 0 ? (
        <p className="text-sm text-muted-foreground">No recent emails</p>
      ) : (
        <ul className="-mx-1 flex min-h-0 flex-1 flex-col overflow-y-auto" aria-label="Emails">
          {data.emails.map((email) => (
            <li key={email.id}>
              <button
                type="button"
                onClick={() => onOpen(email)}
                className="flex w-full min-w-0 flex-col gap-0.5 rounded-md px-1 py-1.5 text-left hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <span className="flex min-w-0 items-center gap-2 text-sm">
                  {email.isNew ? (
                    <span aria-label="New" className="size-2 shrink-0 rounded-full bg-accent" />
                  ) : null}
                  <span className={cn('truncate', email.isNew && 'font-semibold')}>{email.from}</span>
                  {email.needsReply ? <Badge className="shrink-0">Needs reply</Badge> : null}
                  <span className="ml-auto shrink-0 text-xs text-muted-foreground">
                    {shortDate(email.date)}
                  </span>
                </span>
                <span className="truncate text-sm">{email.subject || '(No subject)'}</span>
                <span className="truncate text-xs text-muted-foreground">{email.snippet}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
