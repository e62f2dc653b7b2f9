import { CloudOff } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { useQueuedThoughts, useSyncQueuedThoughts } from '@/features/thoughts/api/sync-queued-thoughts';
import { queuedLocalDate } from '@/features/thoughts/lib/offline-queue';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatTimeOfDay } from '@/lib/format-date';

/** Sends thoughts saved on this device once the connection returns; renders nothing. */
export function QueuedThoughtsSync() {
  useSyncQueuedThoughts({
    onRejected: (thought, error) =>
      toast({
        title: 'Submission error',
        description: `“${(thought.content ?? '').slice(0, 60)}” could not be saved: ${getErrorMessage(error)}`,
        variant: 'destructive',
      }),
  });
  return null;
}

/** The header's count of thoughts waiting on this device, when there are any. */
export function QueuedThoughtsCount() {
  const waiting = useQueuedThoughts().data?.length ?? 0;
  if (waiting === 0) return null;
  return (
    <span
      role="status"
      className="inline-flex items-center gap-1.5 rounded-full bg-amber-100 px-2.5 py-1 text-xs font-medium text-amber-900 dark:bg-amber-400/15 dark:text-amber-200"
    >
      <CloudOff aria-hidden="true" className="size-3.5" />
      {waiting} waiting to sync
    </span>
  );
}

/** A day's thoughts still on this device, marked 'Waiting to sync' (not editable until sent). */
export function QueuedThoughtsOfDay({ date }: { date: string }) {
  const queued = (useQueuedThoughts().data ?? []).filter((t) => queuedLocalDate(t) === date);
  if (queued.length === 0) return null;
  return (
    <ul className="flex flex-col gap-3" aria-label="Waiting to sync">
      {queued.map((thought) => (
        <li
          key={thought.clientKey}
          className="flex flex-col gap-2 rounded-xl border border-dashed bg-card p-4 text-card-foreground"
        >
          <span className="flex items-center gap-2 text-xs text-muted-foreground">
            <time dateTime={thought.clientDate} className="tabular-nums">
              {formatTimeOfDay(new Date(thought.clientDate))}
            </time>
            <Badge className="ml-auto gap-1">
              <CloudOff aria-hidden="true" className="size-3" />
              Waiting to sync
            </Badge>
          </span>
          <span className="line-clamp-4 text-[15px] leading-relaxed break-words whitespace-pre-line">
            {thought.content || 'Voice note'}
          </span>
        </li>
      ))}
    </ul>
  );
}
