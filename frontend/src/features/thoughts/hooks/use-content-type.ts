import { useEffect, useState } from 'react';

import { useAnalyzeContent } from '@/features/thoughts/api/analyze-content';
import { CLASSIFY_DEBOUNCE_MS } from '@/features/thoughts/lib/capture-constants';
import { classifyByKeywords, type ContentType } from '@haven/contracts/classify';

/**
 * Classifies the text as 'thought' or 'chat' 1 s after it stops changing, by the analysis call or,
 * when that fails, by the keyword rule. Blank text is a thought. `analyzing` is true while the call runs.
 */
export function useContentType(text: string): { type: ContentType; analyzing: boolean } {
  const [type, setType] = useState<ContentType>('thought');
  const { mutate, isPending } = useAnalyzeContent();
  const trimmed = text.trim();

  useEffect(() => {
    if (!trimmed) return;
    const timer = window.setTimeout(() => {
      // Per-call callbacks fire only for the latest call, so a slow older answer never wins.
      mutate(
        { text: trimmed },
        {
          onSuccess: (answer) => setType(answer.type),
          onError: () => setType(classifyByKeywords(trimmed)),
        },
      );
    }, CLASSIFY_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [trimmed, mutate]);

  return { type: trimmed ? type : 'thought', analyzing: isPending };
}
