import { useMutation } from '@tanstack/react-query';

import type { MessageAnswer, ResetPasswordBody } from '@haven/contracts/auth';
import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';

/** POST /api/reset-password: sets the new password; 400 when the link is invalid, used or expired. */
export function resetPassword(body: ResetPasswordBody): Promise<MessageAnswer> {
  return apiFetch<MessageAnswer>('/api/reset-password', { method: 'POST', body });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: resetPassword,
    onError: (error) => {
      toast({ title: 'Password Reset Failed', description: getErrorMessage(error), variant: 'destructive' });
    },
  });
}
