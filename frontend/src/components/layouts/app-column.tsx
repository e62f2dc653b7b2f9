import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

interface AppColumnProps {
  children: ReactNode;
  /** From 768 px up, widen to fit a side panel (the auth screen); phones keep the single column. */
  wide?: boolean;
}

/** The single mobile column (28rem) every screen lives in, centred on wider screens. */
export function AppColumn({ children, wide = false }: AppColumnProps) {
  return (
    <div
      className={cn(
        'mx-auto flex min-h-dvh w-full max-w-md flex-col bg-background md:border-x md:shadow-sm',
        wide && 'md:max-w-4xl',
      )}
    >
      {children}
    </div>
  );
}
