import { lazy, Suspense } from 'react';

import type { MarkdownProps } from '@/components/markdown/markdown';
import { cn } from '@/lib/utils';

// react-markdown and its plugins are a heavy chunk: screens load it after their first paint, and
// only for text that has something to render.
const Markdown = lazy(() => import('@/components/markdown/markdown').then((m) => ({ default: m.Markdown })));

/**
 * What can make text render differently as Markdown (GFM with breaks): emphasis, code, links and
 * images, autolinks (a bare address, an e-mail), escapes and entities, raw HTML (dropped), tables,
 * strikethrough, wiki links; at a line's start a heading, quote, list item, rule or setext underline,
 * or an indented code block.
 */
const SYNTAX =
  /[*_`[\]<>|~\\&@]|https?:|www\.|(?:^|\n)(?: {4}|\t|[ \t]*(?:#|>|[-+][ \t]|\d{1,9}[.)](?:\s|$)|[-=]{2,}))/;

/** Whether `text` may render as more than its paragraphs (see `SYNTAX`). */
export function mayBeMarkdown(text: string): boolean {
  return SYNTAX.test(text);
}

/** Text as paragraphs (split at blank lines), line breaks kept: what Markdown makes of plain text. */
function Paragraphs({ text, className, variant }: Pick<MarkdownProps, 'text' | 'className' | 'variant'>) {
  return (
    <div
      className={cn('break-words', variant === 'message' ? 'flex flex-col gap-2' : 'space-y-1.5', className)}
    >
      {text
        .trim()
        .split(/\n[ \t]*\n\s*/)
        .map((paragraph, i) => (
          <p key={i} className="whitespace-pre-line">
            {paragraph}
          </p>
        ))}
    </div>
  );
}

/**
 * `Markdown`, loaded on first use. Text without Markdown syntax never loads it (it would render the
 * same); until it arrives, the text shows as paragraphs in the same box, so little moves.
 */
export function LazyMarkdown(props: MarkdownProps) {
  if (!mayBeMarkdown(props.text)) return <Paragraphs {...props} />;
  return (
    <Suspense fallback={<Paragraphs {...props} />}>
      <Markdown {...props} />
    </Suspense>
  );
}
