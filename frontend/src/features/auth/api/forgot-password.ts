import { useMutation } from '@tanstack/react-query';

import type { ForgotPasswordBody, MessageAnswer } from '@haven/contracts/auth';
import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';

/** The server's deliberately neutral answer, also shown if it ever answers without a message. */
export const RESET_LINK_SENT_MESSAGE = 'If your email is registered, you will receive a password reset link.';

/** POST /api/forgot-password: e-mails a reset link when the address is registered. */
export function forgotPassword(body: ForgotPasswordBody): Promise<MessageAnswer> {
  return apiFetch<MessageAnswer>('/api/forgot-password', { method: 'POST', body });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: forgotPassword,
    onError: (error) => {
      toast({ title: 'Request Failed', description: getErrorMessage(error), variant: 'destructive' });
    },
  });
}
