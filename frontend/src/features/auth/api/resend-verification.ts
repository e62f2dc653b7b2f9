import { useMutation } from '@tanstack/react-query';

import { authContract, type MessageAnswer } from '@haven/contracts/auth';
import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** A fresh code; the neutral answer never reveals a pending sign-up. */
export function resendVerification(
  body: ApiBody<typeof authContract.resendVerification>,
): Promise<MessageAnswer> {
  return api(authContract.resendVerification, { body });
}

export function useResendVerification({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof resendVerification> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: resendVerification });
}
