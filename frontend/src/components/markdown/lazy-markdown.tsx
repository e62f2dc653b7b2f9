import { lazy, Suspense } from 'react';

import type { MarkdownProps } from '@/components/markdown/markdown';
import { cn } from '@/lib/utils';

// react-markdown and its plugins are a heavy chunk: screens load it after their first paint.
const Markdown = lazy(() => import('@/components/markdown/markdown').then((m) => ({ default: m.Markdown })));

/**
 * `Markdown`, loaded on first use. Until it arrives the text shows as it is, line breaks kept, in
 * the same box, so the rendered version replaces it without much of a jump.
 */
export function LazyMarkdown(props: MarkdownProps) {
  return (
    <Suspense
      fallback={<div className={cn('break-words whitespace-pre-line', props.className)}>{props.text}</div>}
    >
      <Markdown {...props} />
    </Suspense>
  );
}
