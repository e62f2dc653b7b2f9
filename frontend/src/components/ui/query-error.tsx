import { CircleAlert, RotateCw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

interface QueryErrorProps {
  /** What failed, as the spec words it ('Failed to load conversations'). */
  message: string;
  /** Why, in the server's words, when it said (beneath the spec's words). */
  detail?: string;
  /** Loads again (a query's `refetch`). */
  onRetry: () => unknown;
  /** While the retry runs, the button waits. */
  retrying?: boolean;
  className?: string;
}

/**
 * In place of a list or panel that failed to load: the error and 'Try Again', announced with
 * role="alert". The one error/retry block of the SPA.
 */
export function QueryError({ message, detail, onRetry, retrying = false, className }: QueryErrorProps) {
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-col items-start gap-3 rounded-xl border border-destructive/30 bg-destructive/5 p-4',
        className,
      )}
    >
      <p className="flex items-center gap-2 text-sm font-medium text-destructive dark:text-red-400">
        <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
        {message}
      </p>
      {detail && <p className="text-sm text-muted-foreground">{detail}</p>}
      <Button variant="outline" size="sm" onClick={() => void onRetry()} disabled={retrying}>
        <RotateCw aria-hidden="true" className={cn(retrying && 'animate-spin')} />
        Try Again
      </Button>
    </div>
  );
}
