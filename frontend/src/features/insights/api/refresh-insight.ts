import type { InsightRange } from '@haven/contracts/insights';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { insightsContract } from '@haven/contracts/insights';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';
import { periodStart } from '../lib/periods';
import { insightKeys } from './get-insight';

/** DELETE /api/insights/delete?date=&range=: forgets the stored insight so the next get regenerates it. */
export async function forgetInsight({ date, range }: { date: string; range: InsightRange }): Promise<void> {
  await api(insightsContract.remove, { query: { date, range } });
}

/** Refresh Insights: forget, then refetch that period. */
export function useRefreshInsight({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof forgetInsight> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: forgetInsight,
    onSuccess: async (...args) => {
      const [, { date, range }] = args;
      await queryClient.invalidateQueries({ queryKey: insightKeys.period(range, periodStart(range, date)) });
      await onSuccess?.(...args);
    },
  });
}
