import { displayCategory } from '@haven/contracts/common';
import type { Highlight, Thought } from '@haven/contracts/thoughts';
import { Mic } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { CATEGORY_LABELS } from '@/components/thoughts/thought-categories';
import { formatShortDay, formatTimeOfDay } from '@/components/thoughts/thought-format';
import { ThoughtAudio } from '@/components/thoughts/thought-audio';
import { ThoughtTags } from '@/components/thoughts/thought-tags';
import { ThoughtText } from '@/components/thoughts/thought-text';
import { Badge } from '@/components/ui/badge';
import { useTimeFormat } from '@/hooks/use-time-format';

const TRANSCRIBING = 'Transcribing…';

interface ThoughtCardProps {
  thought: Thought;
  onOpen: (thought: Thought) => void;
  /** Shows the thoughts with a tag: given, the card's tag chips are buttons. */
  onTag?: (tag: string) => void;
  /** Adds the day before the time (lists that span several days, like search results). */
  showDate?: boolean;
  /**
   * Buttons shown under the card's text (what the thought means to do). They sit beside the card's
   * own button, not inside it, so each stays a control of its own.
   */
  actions?: ReactNode;
  /** Search matches in the text to mark, and the tags that matched (shown emphasised). */
  highlights?: readonly Highlight[];
  matchedTags?: readonly string[];
  /** A short word beside the time on why the card is here (a result found "by meaning"). */
  note?: string;
  /** What shows under the text while "Show more" has opened it (the related entries). */
  renderExpanded?: () => ReactNode;
}

/**
 * One thought as a card. A button covering the whole card opens it (the Edit Thought dialog), named
 * by what the card shows (time, category, text, tags) so a voice-control user can say it (WCAG 2.5.3).
 * What has its own action sits above that button: the text's links and "Show more", the player of a
 * voice thought, tag chips. The text is rendered Markdown (see `ThoughtText`).
 */
export function ThoughtCard({
  thought,
  onOpen,
  onTag,
  showDate = false,
  actions,
  highlights,
  matchedTags,
  note,
  renderExpanded,
}: ThoughtCardProps) {
  const id = useId();
  const [expanded, setExpanded] = useState(false);
  useTimeFormat(); // its time follows the Display setting as soon as it changes
  const time = formatTimeOfDay(thought.date);
  const when = showDate ? `${formatShortDay(thought.localDate)} · ${time}` : time;
  const category = CATEGORY_LABELS[displayCategory(thought.category)];
  const transcribing = thought.content.trim() === '';
  const hasTags = thought.tags.length > 0;
  const labelledBy = [`${id}-meta`, `${id}-content`, hasTags && !onTag && `${id}-tags`].filter(Boolean);

  return (
    <article
      // What is not a control of its own lets taps fall through to the open button under it.
      className="relative flex w-full min-w-0 flex-col gap-2 rounded-xl border bg-card p-4 text-card-foreground shadow-sm transition-colors has-[>button:first-child:hover]:border-accent/40 has-[>button:first-child:hover]:bg-muted/40"
    >
      <button
        type="button"
        onClick={() => onOpen(thought)}
        data-thought-id={thought.id}
        aria-labelledby={labelledBy.join(' ')}
        className="absolute inset-0 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
      <span
        id={`${id}-meta`}
        className="pointer-events-none flex w-full items-center gap-2 text-xs text-muted-foreground"
      >
        <time dateTime={thought.date} className="tabular-nums">
          {when}
        </time>
        {thought.isVoice && (
          <>
            <Mic className="size-3.5 text-accent" aria-hidden="true" />
            <span className="sr-only">, voice entry</span>
          </>
        )}
        {note && (
          <span className="rounded-full border border-accent/30 px-2 py-0.5 text-[11px] font-medium text-accent">
            <span className="sr-only">, </span>
            {note}
          </span>
        )}
        <span className="sr-only">, </span>
        <Badge className="ml-auto">{category}</Badge>
      </span>
      {transcribing ? (
        <span
          id={`${id}-content`}
          className="pointer-events-none text-[15px] leading-relaxed text-muted-foreground italic"
        >
          {TRANSCRIBING}
        </span>
      ) : (
        // A note's headings and lists take lines of their own, so it shows a little more before cutting.
        <ThoughtText
          id={`${id}-content`}
          text={thought.content}
          lines={thought.format === 'markdown' ? 6 : 4}
          highlights={highlights}
          onExpandedChange={setExpanded}
        />
      )}
      {thought.hasAudio && <ThoughtAudio thoughtId={thought.id} label={`Recording of the ${time} thought`} />}
      {hasTags && (
        <ThoughtTags id={`${id}-tags`} tags={thought.tags} onTag={onTag} emphasised={matchedTags} />
      )}
      {actions && (
        <div className="pointer-events-auto relative z-10 flex flex-wrap gap-2 pt-1">{actions}</div>
      )}
      {expanded && renderExpanded && (
        <div className="pointer-events-auto relative z-10">{renderExpanded()}</div>
      )}
    </article>
  );
}
