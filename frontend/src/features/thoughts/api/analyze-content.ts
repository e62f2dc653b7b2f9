import { thoughtsContract, type AnalyzeContentAnswer } from '@haven/contracts/thoughts';
import { useMutation } from '@tanstack/react-query';

import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/**
 * Whether the text reads as a thought to save or a request to the assistant. The answer is checked
 * against the contract, so an unexpected one counts as a failure and the keyword rule takes over.
 */
export function analyzeContent(
  body: ApiBody<typeof thoughtsContract.analyzeContent>,
): Promise<AnalyzeContentAnswer> {
  return api(thoughtsContract.analyzeContent, { body });
}

/** Classifies text; the caller falls back to the keyword rule on failure, so nothing is toasted. */
export function useAnalyzeContent({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof analyzeContent> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: analyzeContent });
}
