import { getUserQueryOptions } from '@/features/auth/api/get-user';
import { queryClient } from '@/lib/query-client';
import { servedSignedIn } from '@/lib/served-session';

/**
 * Starts a signed-in screen's first queries as soon as its module has loaded and the session is
 * known, not after the screen first renders: on a slow phone that render is most of a second, and
 * the data arrives that much sooner. Never for a visitor (each 401 would be an error in their
 * console); when the session check fails, the screen asks for its data itself as before. When the
 * gateway served the page to a valid session, the queries start at once, beside the session check.
 */
export function whenSignedIn(prefetch: () => void): void {
  // The gateway found a valid session when it served this page: no need to wait for ours.
  if (servedSignedIn()) return prefetch();
  queryClient.ensureQueryData(getUserQueryOptions()).then(
    (user) => {
      if (user) prefetch();
    },
    () => undefined,
  );
}
