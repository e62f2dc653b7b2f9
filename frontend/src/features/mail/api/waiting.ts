import { mailContract, type WaitingAnswer } from '@haven/contracts/mail';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api';

export const waitingQueryKey = ['assist', 'waiting'] as const;

/** 'Waiting for an answer': the user's questions nobody answered for their number of days. */
export function getWaiting(): Promise<WaitingAnswer> {
  return api(mailContract.waiting, { noCache: true });
}

export const getWaitingQueryOptions = () =>
  queryOptions({ queryKey: waitingQueryKey, queryFn: getWaiting, refetchInterval: 60_000 });

export function useWaiting() {
  return useQuery(getWaitingQueryOptions());
}

/** After a nudge was sent: its thread waits anew from now, so it leaves the list (the server agrees). */
export function useNudgeSent() {
  const queryClient = useQueryClient();
  return (threadId: string) => {
    queryClient.setQueryData<WaitingAnswer>(waitingQueryKey, (answer) =>
      answer ? { ...answer, threads: answer.threads.filter((t) => t.threadId !== threadId) } : answer,
    );
    void queryClient.invalidateQueries({ queryKey: waitingQueryKey, exact: true });
  };
}
