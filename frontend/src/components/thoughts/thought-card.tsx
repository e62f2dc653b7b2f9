import { displayCategory } from '@haven/contracts/common';
import type { Thought } from '@haven/contracts/thoughts';
import { Mic } from 'lucide-react';
import { useId, type ReactNode } from 'react';

import { Markdown } from '@/components/markdown/markdown';
import { CATEGORY_LABELS } from '@/components/thoughts/thought-categories';
import { formatShortDay, formatTimeOfDay } from '@/components/thoughts/thought-format';
import { Badge } from '@/components/ui/badge';
import { useTimeFormat } from '@/hooks/use-time-format';
import { cn } from '@/lib/utils';

const TRANSCRIBING = 'Transcribing…';

interface ThoughtCardProps {
  thought: Thought;
  onOpen: (thought: Thought) => void;
  /** Adds the day before the time (lists that span several days, like search results). */
  showDate?: boolean;
  /**
   * Buttons shown under the card's text (what the thought means to do). They sit beside the card's
   * own button, not inside it, so each stays a control of its own.
   */
  actions?: ReactNode;
}

/**
 * One thought as a tappable card. Its accessible name is the content (or 'Transcribing…'); time,
 * category, voice and tags are its description, so the whole card stays one button. Typed thoughts
 * show as typed; imported Markdown notes are rendered (see `Markdown`'s `preview`).
 */
export function ThoughtCard({ thought, onOpen, showDate = false, actions }: ThoughtCardProps) {
  const id = useId();
  useTimeFormat(); // its time follows the Display setting as soon as it changes
  const time = formatTimeOfDay(thought.date);
  const when = showDate ? `${formatShortDay(thought.localDate)} · ${time}` : time;
  const category = CATEGORY_LABELS[displayCategory(thought.category)];
  const transcribing = thought.content.trim() === '';
  const markdown = thought.format === 'markdown' && !transcribing;

  const card = (
    <button
      type="button"
      // Named by all it shows (time, category, text, tags): a name that left out visible text would
      // not match what a voice-control user says (WCAG 2.5.3, axe label-content-name-mismatch).
      onClick={() => onOpen(thought)}
      data-thought-id={thought.id}
      className={cn(
        'flex w-full min-w-0 flex-col gap-2 rounded-xl bg-card p-4 text-left text-card-foreground transition-colors outline-none hover:bg-muted/40 focus-visible:ring-2 focus-visible:ring-ring',
        actions ? 'pb-3' : 'border shadow-sm hover:border-accent/40',
      )}
    >
      <span id={`${id}-meta`} className="flex w-full items-center gap-2 text-xs text-muted-foreground">
        <time dateTime={thought.date} className="tabular-nums">
          {when}
        </time>
        {thought.isVoice && (
          <>
            <Mic className="size-3.5 text-accent" aria-hidden="true" />
            <span className="sr-only">, voice entry</span>
          </>
        )}
        <span className="sr-only">, </span>
        <Badge className="ml-auto">{category}</Badge>
      </span>
      {markdown ? (
        // A note's headings and lists take lines of their own, so it shows a little more before clamping.
        <div id={`${id}-content`} className="line-clamp-6 w-full text-[15px] leading-relaxed">
          <Markdown text={thought.content} variant="preview" />
        </div>
      ) : (
        <span
          id={`${id}-content`}
          className={cn(
            'line-clamp-4 text-[15px] leading-relaxed break-words whitespace-pre-line',
            transcribing && 'text-muted-foreground italic',
          )}
        >
          {transcribing ? TRANSCRIBING : thought.content}
        </span>
      )}
      {thought.tags.length > 0 && (
        <span id={`${id}-tags`} className="flex flex-wrap gap-1.5">
          <span className="sr-only">Tags: {thought.tags.join(', ')}</span>
          {thought.tags.map((tag) => (
            <Badge key={tag} variant="secondary" aria-hidden="true" className="max-w-[12rem]">
              <span className="truncate">#{tag}</span>
            </Badge>
          ))}
        </span>
      )}
    </button>
  );
  if (!actions) return card;
  return (
    <div className="flex flex-col rounded-xl border bg-card shadow-sm transition-colors has-[>button:hover]:border-accent/40">
      {card}
      <div className="flex flex-wrap gap-2 px-4 pb-4">{actions}</div>
    </div>
  );
}
