import type { InsightRange } from '@haven/contracts/insights';
import { useState } from 'react';

import { toast } from '@/hooks/use-toast';
import { useRefreshInsight } from '../api/refresh-insight';

/** Spec 9: the refresh spinner shows at least this long. */
const REFRESH_SPINNER_MS = 800;

/** 'Refresh Insights' for the period holding `date`: `refreshing` lasts at least the spinner's minimum. */
export function useRefreshWithSpinner(date: string, range: InsightRange) {
  const [refreshing, setRefreshing] = useState(false);
  const refresh = useRefreshInsight();

  async function onRefresh() {
    setRefreshing(true);
    const minimum = new Promise((r) => setTimeout(r, REFRESH_SPINNER_MS));
    try {
      await refresh.mutateAsync({ date, range });
    } catch {
      toast({ title: 'Failed to fetch insights', variant: 'destructive' });
    }
    await minimum;
    setRefreshing(false);
  }

  return { refreshing, onRefresh };
}
