import { useSyncExternalStore } from 'react';

import { subscribeTimeFormat, timeFormatSnapshot } from '@/lib/time-format';

/**
 * Re-renders the caller when times are to be written differently (the Display setting changed, or
 * the browser's 12/24-hour preference became known); the `format-date` functions read it themselves.
 */
export function useTimeFormat(): string {
  return useSyncExternalStore(subscribeTimeFormat, timeFormatSnapshot, timeFormatSnapshot);
}
