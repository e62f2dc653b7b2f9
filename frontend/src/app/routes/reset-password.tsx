import { useSearchParams } from 'react-router-dom';

import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

/** Without a token: ask for a reset link. With `?token=`: choose the new password. */
export function ResetPasswordRoute() {
  const token = useSearchParams()[0].get('token')?.trim();
  return (
    <SimplePage backTo={paths.auth.path} title="Reset Password">
      {token ? <ResetPasswordForm token={token} /> : <ForgotPasswordForm />}
    </SimplePage>
  );
}
