import { Link, useNavigate } from 'react-router-dom';

import { LoginBody } from '@haven/contracts/auth';
import { EMAIL_INPUT, FormField } from '@/components/ui/form-field';
import { PendingButton } from '@/components/ui/pending-button';
import { paths } from '@/config/paths';
import { useLogin } from '@/features/auth/api/login';
import { PasswordField } from '@/features/auth/components/password-field';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { useZodForm } from '@/lib/use-zod-form';

/** E-mail and password; on success the session is stored and the user lands on /home. */
export function LoginForm() {
  const navigate = useNavigate();
  const loginMutation = useLogin({
    mutationConfig: {
      onSuccess: () => {
        toast({ title: 'Welcome back!', description: "You've successfully logged in." });
        navigate(paths.home.path, { replace: true });
      },
      onError: (error) =>
        toast({ title: 'Login failed', description: getErrorMessage(error), variant: 'destructive' }),
    },
  });
  // Said next to the form as well: a phone's keyboard hides the toast.
  const failure = loginMutation.isError ? getErrorMessage(loginMutation.error) : null;
  const form = useZodForm(LoginBody, { email: '', password: '' });

  return (
    <form
      noValidate
      aria-label="Log in"
      onSubmit={form.handleSubmit((body) => loginMutation.mutate(body))}
      className="flex flex-col gap-4"
    >
      <FormField
        label="Email"
        {...EMAIL_INPUT}
        field={form.register('email')}
        error={form.errorOf('email')}
      />
      <PasswordField
        label="Password"
        purpose="current"
        field={form.register('password')}
        error={form.errorOf('password')}
        labelAside={
          <Link
            to={paths.resetPassword.path}
            className="-mt-4 -mb-2 inline-flex min-h-11 items-center pt-2 text-sm font-medium text-accent underline-offset-4 hover:underline"
          >
            Forgot password?
          </Link>
        }
      />
      {failure && (
        <p role="alert" className="text-sm text-destructive dark:text-red-400">
          Login failed: {failure}
        </p>
      )}
      <PendingButton type="submit" size="lg" className="mt-2 w-full" pending={loginMutation.isPending}>
        Log in
      </PendingButton>
    </form>
  );
}
