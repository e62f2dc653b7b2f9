import { LogIn } from 'lucide-react';

/** Said on /auth when a lapsed session sent the person here: a notice, not an error of theirs. */
export function SessionEndedNotice() {
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-xl border border-accent/30 bg-accent-soft p-4 text-sm text-foreground"
    >
      <LogIn aria-hidden="true" className="size-4 shrink-0 text-accent" />
      Your session has ended. Please log in again.
    </p>
  );
}
