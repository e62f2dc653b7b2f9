import { HttpError } from '@haven/contracts/client';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';

import { createThought } from '@/features/thoughts/api/create-thought';
import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { dequeueThought, queuedThoughts, type QueuedThought } from '@/features/thoughts/lib/offline-queue';

export const queuedThoughtsQueryKey = ['queued-thoughts'] as const;

/** The thoughts waiting on this device to be sent. */
export const queuedThoughtsQueryOptions = () =>
  queryOptions({ queryKey: queuedThoughtsQueryKey, queryFn: queuedThoughts, staleTime: Infinity });

export function useQueuedThoughts() {
  return useQuery(queuedThoughtsQueryOptions());
}

/** Whether a failed save should wait on the device: the network, or a server that is not answering. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof HttpError)) return true; // fetch itself failed: offline, DNS, connection reset
  return error.status === 408 || error.status === 429 || error.status >= 500;
}

const RETRY_EVERY_MS = 30_000;

/**
 * Sends the queued thoughts, oldest first, whenever the connection returns (and every 30 s while
 * some wait). Each is sent with its client key, so one whose answer was lost is not saved twice. A
 * thought the server refuses for good (a 4xx other than a rate limit) is handed to `onRejected` and
 * leaves the queue; anything else stops the round, to be tried again.
 */
export function useSyncQueuedThoughts({
  onRejected,
}: {
  onRejected: (thought: QueuedThought, error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  const queued = useQueuedThoughts();
  const running = useRef(false);
  const rejected = useRef(onRejected);
  useEffect(() => {
    rejected.current = onRejected;
  }, [onRejected]);

  const sync = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    let sent = 0;
    try {
      for (const thought of await queuedThoughts()) {
        try {
          await createThought(thought);
        } catch (error) {
          if (isRetryable(error) || (error instanceof HttpError && error.status === 401)) break;
          rejected.current(thought, error);
        }
        await dequeueThought(thought.clientKey);
        sent++;
      }
    } finally {
      running.current = false;
      await queryClient.invalidateQueries({ queryKey: queuedThoughtsQueryKey });
      if (sent > 0) await queryClient.invalidateQueries({ queryKey: thoughtsQueryKey });
    }
  }, [queryClient]);

  const waiting = queued.data?.length ?? 0;
  // Once on start (thoughts left from an earlier visit), then on every return of the connection.
  useEffect(() => {
    void sync();
    const online = () => void sync();
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  }, [sync]);
  // And on a timer while some wait, for a server that was down while the device stayed online.
  useEffect(() => {
    if (waiting === 0) return;
    const timer = window.setInterval(() => void sync(), RETRY_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [sync, waiting]);

  return { waiting };
}
