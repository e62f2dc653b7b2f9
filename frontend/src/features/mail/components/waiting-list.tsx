import type { NudgeDraft } from '@haven/contracts/mail';

import { Button } from '@/components/ui/button';
import { useWaiting } from '../api/waiting';

const daysText = (days: number) => (days === 1 ? '1 day' : `${days} days`);

/**
 * 'Waiting for an answer': questions the user sent that nobody answered for their number of days,
 * each with whom, the subject, how long, and a 'Nudge' that opens the e-mail dialog with a polite
 * follow-up already written. Nothing shows while there is none.
 */
export function WaitingList({ onNudge }: { onNudge: (nudge: NudgeDraft) => void }) {
  const { data } = useWaiting();
  if (!data?.connected || data.threads.length === 0) return null;
  // One line per thread, two in view (the rest scroll), so the inbox below keeps its room. An
  // ordered list: longest waiting first.
  return (
    <section aria-labelledby="waiting-heading" className="flex shrink-0 flex-col gap-0.5">
      <h3 id="waiting-heading" className="text-xs font-medium text-muted-foreground">
        Waiting for an answer
      </h3>
      <ol className="-mx-1 flex max-h-[4.5rem] flex-col overflow-y-auto" aria-label="Waiting for an answer">
        {data.threads.map((thread) => (
          <li key={thread.threadId} className="flex min-h-11 min-w-0 items-center gap-2 px-1">
            <span className="min-w-0 flex-1 truncate text-sm">
              <span className="font-medium">{thread.to}</span>
              <span className="text-muted-foreground"> · {thread.subject || '(No subject)'}</span>
            </span>
            <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
              {daysText(thread.days)}
            </span>
            <Button
              size="sm"
              variant="outline"
              className="px-2.5"
              aria-label={`Nudge ${thread.to} about ${thread.subject || '(No subject)'}`}
              onClick={() => onNudge(thread.nudge)}
            >
              Nudge
            </Button>
          </li>
        ))}
      </ol>
    </section>
  );
}
