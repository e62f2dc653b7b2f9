import { Link } from 'react-router-dom';

import { ResetPasswordForm as ResetPasswordFormSchema } from '@haven/contracts/auth';
import { StatusMessage } from '@/components/status-message';
import { PendingButton } from '@/components/ui/pending-button';
import { paths } from '@/config/paths';
import { useResetPassword } from '@/features/auth/api/reset-password';
import { BackToLoginLink } from '@/features/auth/components/back-to-login-link';
import { PasswordField } from '@/features/auth/components/password-field';
import { getErrorMessage } from '@/lib/api';
import { useZodForm } from '@/lib/use-zod-form';

/** The new-password form of an e-mailed reset link (`/reset-password?token=`). */
export function ResetPasswordForm({ token }: { token: string }) {
  // A failure shows once, in the form, beside its way out ('Request a new link'); no toast as well.
  const reset = useResetPassword();
  const form = useZodForm(ResetPasswordFormSchema, { password: '', confirmPassword: '' });

  if (reset.isSuccess) {
    return (
      <StatusMessage
        tone="success"
        title="Password Reset Successful"
        actions={<BackToLoginLink variant="default">Go to Login</BackToLoginLink>}
      >
        {reset.data?.message || 'Your password has been changed. You can now log in with your new password.'}
      </StatusMessage>
    );
  }

  return (
    <form
      noValidate
      aria-label="Reset Password"
      onSubmit={form.handleSubmit(({ password }) => reset.mutate({ token, password }))}
      className="flex flex-col gap-4"
    >
      <p className="text-sm text-muted-foreground">Choose a new password for your account.</p>
      {reset.isError && (
        <div role="alert" className="rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm">
          <p className="font-medium text-destructive dark:text-red-400">Password Reset Failed</p>
          <p className="mt-1 text-foreground">{getErrorMessage(reset.error)}</p>
          <Link
            to={paths.resetPassword.path}
            className="mt-2 inline-block font-medium text-accent underline-offset-4 hover:underline"
          >
            Request a new link
          </Link>
        </div>
      )}
      <PasswordField
        label="New Password"
        purpose="new"
        field={form.register('password')}
        error={form.errorOf('password')}
      />
      <PasswordField
        label="Confirm Password"
        purpose="new"
        field={form.register('confirmPassword')}
        error={form.errorOf('confirmPassword')}
      />
      <PendingButton type="submit" size="lg" className="mt-2 w-full" pending={reset.isPending}>
        Reset Password
      </PendingButton>
    </form>
  );
}
