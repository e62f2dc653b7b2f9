import { ArrowLeft } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { paths, type AuthLocationState } from '@/config/paths';
import { AuthSidePanel } from '@/features/auth/components/auth-side-panel';
import { AuthTabs } from '@/features/auth/components/auth-tabs';
import { SessionEndedNotice } from '@/features/auth/components/session-ended-notice';
import { cn } from '@/lib/utils';

/** Log in or create an account; the initial tab comes from navigation state (default: log in). */
export function AuthRoute() {
  const state = useLocation().state as AuthLocationState | null;
  const initialTab = state?.tab === 'register' ? 'register' : 'login';

  return (
    <main className="flex flex-1 flex-col gap-6 px-4 pt-[calc(1rem+env(safe-area-inset-top))] pb-[calc(2rem+env(safe-area-inset-bottom))] md:px-8 md:py-10">
      <Link
        to={paths.welcome.path}
        aria-label="Back"
        className={cn(buttonVariants({ variant: 'ghost', size: 'icon' }), '-ml-2')}
      >
        <ArrowLeft aria-hidden="true" className="!size-5" />
      </Link>
      <div className="grid flex-1 gap-10 md:grid-cols-2 md:items-start">
        <div className="flex flex-col gap-6">
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-semibold tracking-tight">Welcome to Haven</h1>
            <p className="text-sm text-muted-foreground">Log in or create an account to continue.</p>
          </div>
          {state?.sessionEnded && <SessionEndedNotice />}
          <AuthTabs initialTab={initialTab} />
        </div>
        <AuthSidePanel />
      </div>
    </main>
  );
}
