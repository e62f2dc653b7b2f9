import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { paths, type AuthLocationState } from '@/config/paths';
import { cn } from '@/lib/utils';

/** Back to /auth with the 'Create account' tab open, as a full-width button. */
export function BackToRegistrationLink({ variant = 'ghost' }: { variant?: 'default' | 'outline' | 'ghost' }) {
  return (
    <Link
      to={paths.auth.path}
      state={{ tab: 'register' } satisfies AuthLocationState}
      className={cn(buttonVariants({ variant }), 'w-full')}
    >
      Back to registration
    </Link>
  );
}
