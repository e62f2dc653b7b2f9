import { useMutation } from '@tanstack/react-query';

import { AnalyzeContentAnswer, type AnalyzeContentBody } from '@haven/contracts/thoughts';
import { apiFetch } from '@/lib/api-client';

/** POST /api/analyze-content: whether the text reads as a thought to save or a request to the assistant. */
export async function analyzeContent(body: AnalyzeContentBody): Promise<AnalyzeContentAnswer> {
  // Parsed so that an unexpected answer counts as a failure and the keyword rule takes over.
  return AnalyzeContentAnswer.parse(
    await apiFetch<unknown>('/api/analyze-content', { method: 'POST', body }),
  );
}

/** Classifies text; no toast on failure, because the caller falls back to the keyword rule. */
export function useAnalyzeContent() {
  return useMutation({ mutationFn: analyzeContent });
}
