import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import { paths, type AuthLocationState } from '@/config/paths';
import { TermsDialog } from '@/features/legal/components/terms-dialog';
import { HowItWorks } from '@/features/welcome/components/how-it-works';

/** Landing screen for visitors: the pitch, the two ways in, how it works, and the legal links. */
export function WelcomeRoute() {
  const navigate = useNavigate();
  const [termsOpen, setTermsOpen] = useState(false);
  const goToAuth = (tab: NonNullable<AuthLocationState['tab']>) =>
    navigate(paths.auth.path, { state: { tab } satisfies AuthLocationState });

  return (
    <div className="flex flex-1 flex-col">
      <main className="flex flex-1 flex-col gap-12 px-6 pt-[calc(4rem+env(safe-area-inset-top))] pb-10">
        <div className="flex flex-col gap-8">
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
        </div>
        <HowItWorks />
      </main>
      <footer className="flex flex-col items-center gap-2 border-t px-6 pt-5 pb-[calc(1.5rem+env(safe-area-inset-bottom))] text-sm text-muted-foreground">
        <div className="flex items-center gap-1">
          <Link
            to={paths.privacyPolicy.path}
            className="inline-flex min-h-11 items-center rounded-md px-2 hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            Privacy Policy
          </Link>
          <span aria-hidden="true">·</span>
          <button
            type="button"
            onClick={() => setTermsOpen(true)}
            className="inline-flex min-h-11 items-center rounded-md px-2 hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            Terms of Service
          </button>
        </div>
        <p className="text-center text-xs">
          © {new Date().getFullYear()} Haven. Your thoughts are encrypted when saved.
        </p>
      </footer>
      <TermsDialog open={termsOpen} onOpenChange={setTermsOpen} />
    </div>
  );
}
