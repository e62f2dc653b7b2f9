import type { Highlight } from '@haven/contracts/thoughts';

import { splitHighlights } from '@/lib/highlight';
import { cn } from '@/lib/utils';

/** A search match: marked for every reader (a screen reader hears the text as it is). */
export function Mark({ children }: { children: string }) {
  return (
    <mark className="rounded-[3px] bg-mark px-px text-mark-foreground [box-decoration-break:clone]">
      {children}
    </mark>
  );
}

/** Text with its highlighted spans marked, as one run (no paragraphs of its own). */
export function Marked({ text, highlights }: { text: string; highlights: readonly Highlight[] }) {
  return (
    <>
      {splitHighlights(text, highlights).map((segment, i) =>
        segment.mark ? <Mark key={i}>{segment.text}</Mark> : segment.text,
      )}
    </>
  );
}

/**
 * Plain text (no Markdown syntax in it) as paragraphs with line breaks kept, as the Markdown
 * renderer draws such text, with the highlights marked. Offsets are into `text` as given.
 */
export function HighlightedParagraphs({
  text,
  highlights,
  className,
}: {
  text: string;
  highlights: readonly Highlight[];
  className?: string;
}) {
  // Paragraphs are split at blank lines, each keeping its own offsets into the text.
  const paragraphs: { start: number; end: number }[] = [];
  const gap = /\n[ \t]*\n\s*/g;
  let at = 0;
  for (let found = gap.exec(text); found; found = gap.exec(text)) {
    paragraphs.push({ start: at, end: found.index });
    at = found.index + found[0].length;
  }
  paragraphs.push({ start: at, end: text.length });
  return (
    <div className={cn('space-y-1.5 break-words', className)}>
      {paragraphs
        .filter(({ start, end }) => text.slice(start, end).trim() !== '')
        .map(({ start, end }) => (
          <p key={start} className="whitespace-pre-line">
            <Marked
              text={text.slice(start, end)}
              highlights={highlights
                .filter((h) => h.start < end && h.end > start)
                .map((h) => ({ start: Math.max(h.start, start) - start, end: Math.min(h.end, end) - start }))}
            />
          </p>
        ))}
    </div>
  );
}
