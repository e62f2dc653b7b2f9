import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';

/** Placeholder for the reset request and new-password forms. */
export function ResetPasswordRoute() {
  return <SimplePage backTo={paths.auth.path} title="Reset Password" />;
}
