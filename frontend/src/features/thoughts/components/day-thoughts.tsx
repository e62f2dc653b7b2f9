import type { Thought } from '@haven/contracts/thoughts';
import { NotebookPen } from 'lucide-react';
import type { ReactNode } from 'react';

import { ErrorAlert } from '@/components/ui/error-alert';
import { ThoughtCard } from '@/components/thoughts/thought-card';
import { ThoughtListPlaceholder } from '@/components/thoughts/thought-list-placeholder';
import { useThoughtFindings } from '@/features/thoughts/api/get-thought-findings';
import { useThoughtsByDay } from '@/features/thoughts/api/get-thoughts-by-day';
import {
  FindingChips,
  offersActions,
  type ConfirmActions,
} from '@/features/thoughts/components/finding-chips';
import { QueuedThoughtsOfDay } from '@/features/thoughts/components/queued-thoughts';
import { RelatedThoughts } from '@/features/thoughts/components/related-thoughts';
import { dayListHeading } from '@/lib/local-day';

interface DayThoughtsProps {
  date: string;
  today: string;
  onOpen: (thought: Thought) => void;
  /** Shows the thoughts with a tag tapped on a card. */
  onTag?: (tag: string) => void;
  /** The user's confirmation preferences, for the dialogs the cards' actions open. */
  confirm: ConfirmActions;
  /** Shown instead of the timeline's empty-day panel (a screen with more above it says less). */
  emptyState?: ReactNode;
}

/** The list of one day's thoughts under its heading, with loading, error and empty states. */
export function DayThoughts({ date, today, onOpen, onTag, confirm, emptyState }: DayThoughtsProps) {
  const thoughts = useThoughtsByDay(date);
  const findings = useThoughtFindings(thoughts.data ?? []).data;
  const headingId = `day-thoughts-${date}`;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-lg font-semibold tracking-tight">
        {dayListHeading(date, today)}
      </h2>
      <QueuedThoughtsOfDay date={date} />
      {thoughts.isPending ? (
        <ThoughtListPlaceholder count={2} />
      ) : thoughts.isError && !navigator.onLine ? (
        <p className="rounded-xl border border-dashed px-4 py-3 text-sm text-muted-foreground">
          You are offline. Thoughts already saved will show when the connection returns.
        </p>
      ) : thoughts.isError ? (
        <ErrorAlert>{thoughts.error.message}</ErrorAlert>
      ) : thoughts.data.length === 0 && emptyState !== undefined ? (
        emptyState
      ) : thoughts.data.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-10 text-center">
          <NotebookPen aria-hidden="true" className="size-8 text-muted-foreground/60" />
          <p className="font-medium">No thoughts for this day.</p>
          {date === today && (
            <p className="text-sm text-balance text-muted-foreground">
              Tap the + button below to capture one.
            </p>
          )}
        </div>
      ) : (
        <ul className="flex flex-col gap-3">
          {thoughts.data.map((thought) => {
            const finding = findings?.get(thought.id);
            return (
              <li key={thought.id}>
                <ThoughtCard
                  thought={thought}
                  onOpen={onOpen}
                  onTag={onTag}
                  renderExpanded={() => <RelatedThoughts thought={thought} onOpen={onOpen} />}
                  actions={
                    offersActions(finding, today) ? (
                      <FindingChips finding={finding} today={today} confirm={confirm} />
                    ) : undefined
                  }
                />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
