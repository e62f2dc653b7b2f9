import { useMutation } from '@tanstack/react-query';

import type { MessageAnswer, RequestVerificationBody } from '@haven/contracts/auth';
import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';

/**
 * POST /api/request-verification: stores the pending registration and e-mails a 6-digit code.
 * 409 when the username or e-mail is taken, 429 when asked too often.
 */
export function requestVerification(body: RequestVerificationBody): Promise<MessageAnswer> {
  return apiFetch<MessageAnswer>('/api/request-verification', { method: 'POST', body });
}

/** Starts a registration; `onSuccess` receives the e-mail the code was sent to. */
export function useRequestVerification({ onSuccess }: { onSuccess?: (email: string) => void } = {}) {
  return useMutation({
    mutationFn: requestVerification,
    onSuccess: (_answer, body) => onSuccess?.(body.email),
    onError: (error) => {
      toast({
        title: 'Registration failed',
        description: getErrorMessage(error, 'Registration failed'),
        variant: 'destructive',
      });
    },
  });
}
