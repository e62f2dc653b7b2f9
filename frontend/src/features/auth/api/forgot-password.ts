import { useMutation } from '@tanstack/react-query';

import { authContract, type MessageAnswer } from '@haven/contracts/auth';
import { api, type ApiBody } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** The server's deliberately neutral answer, also shown if it ever answers without a message. */
export const RESET_LINK_SENT_MESSAGE = 'If your email is registered, you will receive a password reset link.';

/** E-mails a reset link when the address is registered. */
export function forgotPassword(body: ApiBody<typeof authContract.forgotPassword>): Promise<MessageAnswer> {
  return api(authContract.forgotPassword, { body });
}

export function useForgotPassword({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof forgotPassword> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: forgotPassword });
}
