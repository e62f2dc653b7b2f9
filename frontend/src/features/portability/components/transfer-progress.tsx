import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

interface TransferProgressProps {
  /** What is under way, like 'Importing'. */
  label: string;
  /** 0..100, or null while it cannot be told (the upload). */
  value: number | null;
  /** A second line, like what the zip was found to be. */
  detail?: ReactNode;
}

/** A progress bar for an export or import, announced politely as it moves. */
export function TransferProgress({ label, value, detail }: TransferProgressProps) {
  return (
    <div role="status" className="flex flex-col gap-1.5">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value ?? undefined}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn(
            'h-full rounded-full bg-accent transition-[width]',
            value === null && 'animate-pulse',
          )}
          style={{ width: `${value ?? 100}%` }}
        />
      </div>
      <p className="flex flex-wrap justify-between gap-x-3 text-xs text-muted-foreground">
        <span className="tabular-nums">{value === null ? `${label}…` : `${label} ${value}%`}</span>
        {detail && <span>{detail}</span>}
      </p>
    </div>
  );
}
