import type { ReactNode } from 'react';

/** The single mobile column (28rem) every screen lives in, centred on wider screens. */
export function AppColumn({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col bg-background md:border-x md:shadow-sm">
      {children}
    </div>
  );
}
