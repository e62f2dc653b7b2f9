import { useNavigate } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import { paths, type AuthLocationState } from '@/config/paths';

/** Landing screen for visitors (the full page with 'How It Works' comes in a later issue). */
export function WelcomeRoute() {
  const navigate = useNavigate();
  const goToAuth = (tab: NonNullable<AuthLocationState['tab']>) =>
    navigate(paths.auth.path, { state: { tab } satisfies AuthLocationState });

  return (
    <main className="flex flex-1 flex-col justify-between gap-10 px-6 pt-[calc(4rem+env(safe-area-inset-top))] pb-[calc(2.5rem+env(safe-area-inset-bottom))]">
      <div className="flex flex-col items-start gap-6">
        <div
          aria-hidden="true"
          className="flex size-14 items-center justify-center rounded-2xl bg-accent text-2xl font-bold text-accent-foreground shadow-md"
        >
          H
        </div>
        <div className="flex flex-col gap-3">
          <h1 className="text-3xl font-bold tracking-tight">Welcome to Haven</h1>
          <p className="text-base leading-relaxed text-muted-foreground">
            Your voice-activated digital chief of staff for multi-role professionals.
          </p>
        </div>
      </div>
      <div className="flex flex-col gap-3">
        <Button size="lg" onClick={() => goToAuth('login')}>
          Log in
        </Button>
        <Button size="lg" variant="outline" onClick={() => goToAuth('register')}>
          Create account
        </Button>
      </div>
    </main>
  );
}
