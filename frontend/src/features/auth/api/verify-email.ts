import { useCallback } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authContract, type VerifyEmailAnswer } from '@haven/contracts/auth';
import { userKeys } from '@/features/auth/api/get-user';
import { setSession } from '@/features/auth/lib/set-session';
import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/**
 * Verifies with the e-mailed code (`{ email, code }`) or the link's `{ token }`. Creates the account,
 * sets the session cookie and answers the user; 400 for a wrong, expired or locked code (the message
 * says which).
 */
export function verifyEmail(body: ApiBody<typeof authContract.verifyEmail>): Promise<VerifyEmailAnswer> {
  return api(authContract.verifyEmail, { body });
}

/** The verify call alone: each screen decides when the new session reaches the cache. */
export function useVerifyEmail({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof verifyEmail> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: verifyEmail });
}

/**
 * Stores the session a verification started, then asks the server again (the cookie is set now).
 * The code screen calls it only as it leaves: on a visitor-only route, a user in the cache would
 * redirect at once and 'verified' would never be seen.
 */
export function useStartVerifiedSession() {
  const queryClient = useQueryClient();
  return useCallback(
    (answer: VerifyEmailAnswer) => {
      setSession(queryClient, answer.user);
      void queryClient.invalidateQueries({ queryKey: userKeys.current() });
    },
    [queryClient],
  );
}
