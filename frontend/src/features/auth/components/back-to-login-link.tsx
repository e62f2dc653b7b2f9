import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/** A full-width link to /auth (login tab) styled as a button. */
export function BackToLoginLink({
  children = 'Back to Login',
  variant = 'ghost',
}: {
  children?: string;
  variant?: 'default' | 'outline' | 'ghost';
}) {
  return (
    <Link to={paths.auth.path} className={cn(buttonVariants({ variant, size: 'lg' }), 'w-full')}>
      {children}
    </Link>
  );
}
