import { MailCheck } from 'lucide-react';
import { useNavigate } from 'react-router-dom';

import { RegisterForm as RegisterFormSchema } from '@haven/contracts/auth';
import { EMAIL_INPUT, FormField } from '@/components/ui/form-field';
import { PendingButton } from '@/components/ui/pending-button';
import { paths } from '@/config/paths';
import { useRequestVerification } from '@/features/auth/api/request-verification';
import { PasswordField } from '@/features/auth/components/password-field';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { useZodForm } from '@/lib/use-zod-form';

const EMPTY = { username: '', name: '', email: '', password: '', confirmPassword: '' };

/** Starts a registration: the server e-mails a code and the user continues on /verify-code. */
export function RegisterForm() {
  const navigate = useNavigate();
  const requestVerification = useRequestVerification({
    mutationConfig: {
      onSuccess: (_answer, body) => navigate(paths.verifyCode.getHref(body.email)),
      onError: (error) =>
        toast({
          title: 'Registration failed',
          description: getErrorMessage(error, 'Registration failed'),
          variant: 'destructive',
        }),
    },
  });
  const form = useZodForm(RegisterFormSchema, EMPTY);
  // Said next to the form as well: a phone's keyboard hides the toast.
  const failure = requestVerification.isError
    ? getErrorMessage(requestVerification.error, 'Registration failed')
    : null;

  return (
    <form
      noValidate
      aria-label="Create account"
      onSubmit={form.handleSubmit(({ confirmPassword: _confirm, ...body }) =>
        requestVerification.mutate({ ...body, isEmailVerified: false }),
      )}
      className="flex flex-col gap-4"
    >
      <FormField
        label="Username"
        autoComplete="username"
        field={form.register('username')}
        error={form.errorOf('username')}
      />
      <FormField
        label="Name (optional)"
        autoComplete="name"
        field={form.register('name')}
        error={form.errorOf('name')}
      />
      <FormField
        label="Email"
        {...EMAIL_INPUT}
        field={form.register('email')}
        error={form.errorOf('email')}
      />
      <PasswordField
        label="Password"
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
      <p className="flex items-start gap-2 rounded-lg bg-accent-soft p-3 text-sm text-foreground">
        <MailCheck className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden="true" />
        We&apos;ll email you a 6-digit code. Your email must be verified before you can log in.
      </p>
      {failure && (
        <p role="alert" className="text-sm text-destructive dark:text-red-400">
          Registration failed: {failure}
        </p>
      )}
      <PendingButton type="submit" size="lg" className="w-full" pending={requestVerification.isPending}>
        Create account
      </PendingButton>
    </form>
  );
}
