import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

import { StatusMessage } from '@/components/status-message';
import { PendingButton } from '@/components/ui/pending-button';
import { paths } from '@/config/paths';
import { useResendVerification } from '@/features/auth/api/resend-verification';
import { useStartVerifiedSession, useVerifyEmail } from '@/features/auth/api/verify-email';
import { BackToRegistrationLink } from '@/features/auth/components/back-to-registration-link';
import { VerifyCodeForm } from '@/features/auth/components/verify-code-form';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';

/** Spec 9: how long 'verified' shows before the app moves on. */
const REDIRECT_DELAY_MS = 2000;
const FAILED_MESSAGE = 'Verification failed. Please check your code and try again.';

/** The spec's message, and the server's own reason when it says more. */
const refusal = (error: unknown) => {
  const serverMessage = getErrorMessage(error, FAILED_MESSAGE);
  return serverMessage === FAILED_MESSAGE ? FAILED_MESSAGE : `${FAILED_MESSAGE} ${serverMessage}`;
};

/**
 * Entering → verifying → verified (then on to `/` after 2 s); a refused code stays on this form with
 * the reason under the field (retype, resend, or go back).
 */
export function VerifyCodePanel({ email }: { email: string }) {
  const navigate = useNavigate();
  const verify = useVerifyEmail();
  const resend = useResendVerification({
    mutationConfig: {
      onSuccess: (answer) => {
        toast({ title: 'Code Sent', description: answer.message });
        verify.reset();
      },
      onError: (error) =>
        toast({
          title: 'Failed to Resend Code',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });
  const startSession = useStartVerifiedSession();
  const answer = verify.data;

  useEffect(() => {
    if (!answer) return;
    const timer = window.setTimeout(() => {
      startSession(answer);
      navigate(paths.root.path, { replace: true });
    }, REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [answer, startSession, navigate]);

  const verifyCode = (code: string) =>
    verify.mutate(
      { email, code },
      {
        onSuccess: () =>
          toast({ title: 'Account created', description: 'Your account has been successfully created.' }),
      },
    );

  const resendButton = (
    <PendingButton
      variant="outline"
      className="w-full"
      pending={resend.isPending}
      onClick={() => resend.mutate({ email })}
    >
      Resend Code
    </PendingButton>
  );

  if (verify.isSuccess) {
    return (
      <StatusMessage tone="success" title="Email Verified!">
        Your account is ready. Taking you to Haven…
      </StatusMessage>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      <p className="-mt-2 text-sm text-muted-foreground">
        We sent a 6-digit code to <span className="font-medium break-all text-foreground">{email}</span>.
        Enter it below to finish creating your account.
      </p>
      {/* A refused code keeps the field, with the reason under it, so the user can retype it. */}
      <VerifyCodeForm
        onSubmit={verifyCode}
        pending={verify.isPending}
        error={verify.isError ? refusal(verify.error) : undefined}
        onEdit={() => {
          if (verify.isError) verify.reset();
        }}
      />
      {verify.isPending && (
        <p role="status" className="text-center text-sm text-muted-foreground">
          Verifying your code…
        </p>
      )}
      <div className="flex flex-col items-center gap-2 border-t pt-6">
        <p className="text-sm text-muted-foreground">
          Didn&apos;t get a code? It can take a minute to arrive.
        </p>
        {resendButton}
        <BackToRegistrationLink />
      </div>
    </div>
  );
}
