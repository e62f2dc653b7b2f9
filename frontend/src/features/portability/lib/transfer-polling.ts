import type { TransferStatus } from '@haven/contracts/portability';
import type { Query } from '@tanstack/react-query';

/** How often a running export or import is asked how far it is. */
export const TRANSFER_POLL_MS = 800;

/** Whether a transfer is still under way (the server has not settled it yet). */
export const isUnderway = (status: TransferStatus) => status === 'queued' || status === 'running';

/**
 * `refetchInterval` for a transfer's status: read again while it is under way; stop once it has
 * settled or a read failed (a 404 for a transfer that is gone, a network error).
 */
export function pollWhileUnderway<T extends { status: TransferStatus }>(
  query: Query<T, Error>,
): number | false {
  const { data, error } = query.state;
  if (error || (data && !isUnderway(data.status))) return false;
  return TRANSFER_POLL_MS;
}
