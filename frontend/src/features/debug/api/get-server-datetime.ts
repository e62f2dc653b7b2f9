import { debugContract, type DateTimeDebug } from '@haven/contracts/debug';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';

export const serverDateTimeKeys = {
  all: ['debug', 'datetime'] as const,
};

/** GET /api/debug/datetime: the gateway's view of "now". */
export function getServerDateTime(): Promise<DateTimeDebug> {
  return api(debugContract.datetime, { noCache: true });
}

export function useServerDateTime() {
  // Always fresh: the point of the page is comparing the two clocks now.
  return useQuery(
    queryOptions({ queryKey: serverDateTimeKeys.all, queryFn: getServerDateTime, staleTime: 0 }),
  );
}
