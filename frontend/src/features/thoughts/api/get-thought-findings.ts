import { insightsContract, MAX_FINDINGS_THOUGHTS, type ThoughtFinding } from '@haven/contracts/insights';
import type { Thought } from '@haven/contracts/thoughts';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { api } from '@/lib/api';

/** The local engine's findings (an event, a person to e-mail) in the given thoughts, by thought id. */
export async function getThoughtFindings(thoughts: Thought[]): Promise<Map<number, ThoughtFinding>> {
  const { findings } = await api(insightsContract.findings, {
    body: {
      thoughts: thoughts
        .filter((t) => t.content.trim() !== '')
        .slice(0, MAX_FINDINGS_THOUGHTS)
        .map(({ id, content, localDate }) => ({ id, content, localDate })),
    },
  });
  return new Map(findings.map((f) => [f.thoughtId, f]));
}

/**
 * Under the thoughts key, so saving or editing any thought reads the list again; the ids and the
 * length of each text name the list (an edit is caught by that invalidation, not by the key).
 */
export const getThoughtFindingsQueryKey = (thoughts: Thought[]) =>
  [...thoughtsQueryKey, 'findings', thoughts.map((t) => `${t.id}:${t.content.length}`).join(',')] as const;

export function getThoughtFindingsQueryOptions(thoughts: Thought[]) {
  return queryOptions({
    queryKey: getThoughtFindingsQueryKey(thoughts),
    queryFn: () => getThoughtFindings(thoughts),
    enabled: thoughts.some((t) => t.content.trim() !== ''),
    // Actions are extras on the cards: a failure just leaves them off, without a retry storm.
    retry: false,
  });
}

export function useThoughtFindings(thoughts: Thought[]) {
  return useQuery(getThoughtFindingsQueryOptions(thoughts));
}
