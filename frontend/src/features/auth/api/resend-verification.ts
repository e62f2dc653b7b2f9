import { useMutation } from '@tanstack/react-query';

import type { MessageAnswer, ResendVerificationBody } from '@haven/contracts/auth';
import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';

/** POST /api/resend-verification: a fresh code; the neutral answer never reveals a pending sign-up. */
export function resendVerification(body: ResendVerificationBody): Promise<MessageAnswer> {
  return apiFetch<MessageAnswer>('/api/resend-verification', { method: 'POST', body });
}

export function useResendVerification() {
  return useMutation({
    mutationFn: resendVerification,
    onSuccess: (answer) => {
      toast({ title: 'Code Sent', description: answer.message });
    },
    onError: (error) => {
      toast({ title: 'Failed to Resend Code', description: getErrorMessage(error), variant: 'destructive' });
    },
  });
}
