import type { Thought } from '@haven/contracts/thoughts';
import { X } from 'lucide-react';

import { useThoughtFindings } from '@/features/thoughts/api/get-thought-findings';
import {
  FindingChips,
  offersActions,
  type ConfirmActions,
} from '@/features/thoughts/components/finding-chips';
import { todayYmd } from '@/lib/local-day';

/**
 * The thought just saved from a tabbed screen, as a small card with what the local engine found in
 * it ("Add to calendar · Thu 26 Nov 15:00", "Draft e-mail to Tom"), so the user can act at once
 * without going to the timeline. Shows nothing when the thought offers no action.
 */
export function SavedThoughtActions({
  thought,
  confirm,
  onDismiss,
}: {
  thought: Thought;
  confirm: ConfirmActions;
  onDismiss: () => void;
}) {
  const finding = useThoughtFindings([thought]).data?.get(thought.id);
  const today = todayYmd();
  if (!offersActions(finding, today)) return null;
  return (
    <section
      aria-label="Your saved thought"
      className="mb-4 flex flex-col gap-2 rounded-xl border bg-card p-3 text-card-foreground shadow-sm"
    >
      <div className="flex items-start gap-2">
        <p className="line-clamp-2 min-w-0 flex-1 text-sm text-muted-foreground">
          <span className="font-medium text-foreground">Saved: </span>
          {thought.content}
        </p>
        <button
          type="button"
          aria-label="Dismiss"
          onClick={onDismiss}
          className="-m-1 flex size-11 shrink-0 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
      <div className="flex flex-wrap gap-2">
        <FindingChips finding={finding} today={today} confirm={confirm} />
      </div>
    </section>
  );
}
