import { ForgotPasswordBody } from '@haven/contracts/auth';
import { StatusMessage } from '@/components/status-message';
import { EMAIL_INPUT, FormField } from '@/components/ui/form-field';
import { PendingButton } from '@/components/ui/pending-button';
import { RESET_LINK_SENT_MESSAGE, useForgotPassword } from '@/features/auth/api/forgot-password';
import { BackToLoginLink } from '@/features/auth/components/back-to-login-link';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { useZodForm } from '@/lib/use-zod-form';

/** Asks for a reset link, then shows the server's neutral 'Check Your Email' message. */
export function ForgotPasswordForm() {
  const request = useForgotPassword({
    mutationConfig: {
      onError: (error) =>
        toast({ title: 'Request Failed', description: getErrorMessage(error), variant: 'destructive' }),
    },
  });
  const form = useZodForm(ForgotPasswordBody, { email: '' });

  if (request.isSuccess) {
    return (
      <StatusMessage tone="info" title="Check Your Email" actions={<BackToLoginLink variant="outline" />}>
        {request.data?.message || RESET_LINK_SENT_MESSAGE}
      </StatusMessage>
    );
  }

  return (
    <form
      noValidate
      aria-label="Send Reset Link"
      onSubmit={form.handleSubmit((body) => request.mutate(body))}
      className="flex flex-col gap-4"
    >
      <p className="text-sm text-muted-foreground">
        Enter your account&apos;s email and we&apos;ll send you a link to reset your password.
      </p>
      <FormField
        label="Email"
        {...EMAIL_INPUT}
        field={form.register('email')}
        error={form.errorOf('email')}
      />
      <PendingButton type="submit" size="lg" className="mt-2 w-full" pending={request.isPending}>
        Send Reset Link
      </PendingButton>
      <BackToLoginLink />
    </form>
  );
}
