import { useMutation } from '@tanstack/react-query';

import { authContract, type MessageAnswer } from '@haven/contracts/auth';
import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** Sets the new password; 400 when the link is invalid, used or expired. */
export function resetPassword(body: ApiBody<typeof authContract.resetPassword>): Promise<MessageAnswer> {
  return api(authContract.resetPassword, { body });
}

export function useResetPassword({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof resetPassword> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: resetPassword });
}
