import { useMutation } from '@tanstack/react-query';

import { authContract, type MessageAnswer } from '@haven/contracts/auth';
import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/**
 * Stores the pending registration and e-mails a 6-digit code. 409 when the username or e-mail is
 * taken, 429 when asked too often.
 */
export function requestVerification(
  body: ApiBody<typeof authContract.requestVerification>,
): Promise<MessageAnswer> {
  return api(authContract.requestVerification, { body });
}

/** Starts a registration. */
export function useRequestVerification({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof requestVerification> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: requestVerification });
}
