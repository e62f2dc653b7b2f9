import { Link } from 'react-router-dom';

import { StatusMessage } from '@/components/status-message';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/** The link worked: the account is verified. */
export function VerifyLinkSuccess() {
  return (
    <StatusMessage
      tone="success"
      title="Email Verified!"
      actions={
        <Link to={paths.auth.path} className={cn(buttonVariants({ size: 'lg' }), 'w-full')}>
          Go to Login
        </Link>
      }
    >
      Your email address has been verified. You can now log in to Haven.
    </StatusMessage>
  );
}

/** The link did not work, with the reason in words. */
export function VerifyLinkFailure({ message }: { message: string }) {
  return (
    <StatusMessage
      tone="error"
      title="Verification Failed"
      actions={
        <Link
          to={paths.auth.path}
          className={cn(buttonVariants({ variant: 'outline', size: 'lg' }), 'w-full')}
        >
          Back to Login
        </Link>
      }
    >
      {message}
    </StatusMessage>
  );
}
