import { LoaderCircle } from 'lucide-react';
import type { ComponentProps } from 'react';

import { cn } from '@/lib/utils';

type SpinnerProps = ComponentProps<'div'> & { size?: 'sm' | 'md' | 'lg'; label?: string };

const sizes = { sm: 'size-4', md: 'size-6', lg: 'size-10' } as const;

/** An announced loading indicator (`role="status"`, labelled 'Loading' unless told otherwise). */
export function Spinner({ className, size = 'md', label = 'Loading', ...props }: SpinnerProps) {
  return (
    <div role="status" aria-label={label} className={cn('inline-flex text-accent', className)} {...props}>
      <LoaderCircle className={cn('animate-spin', sizes[size])} aria-hidden="true" />
    </div>
  );
}

/** A spinner centred in the whole viewport column, for screens waiting on the session. */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh w-full items-center justify-center">
      <Spinner size="lg" />
    </div>
  );
}
