import { CircleAlert, CircleCheck, CircleX, LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

/** How a check came out: fine, a problem, worth a look, or not known yet. */
export type CheckTone = 'ok' | 'bad' | 'warn' | 'pending';

const TONES = {
  ok: { Icon: CircleCheck, className: 'text-emerald-600 dark:text-emerald-400' },
  bad: { Icon: CircleX, className: 'text-destructive dark:text-red-400' },
  warn: { Icon: CircleAlert, className: 'text-amber-600 dark:text-amber-400' },
  pending: { Icon: LoaderCircle, className: 'animate-spin text-muted-foreground' },
} as const;

/** One line of a diagnostic list (inside a `<dl>`): what was checked and what was found, in words. */
export function CheckRow({
  label,
  tone,
  children,
}: {
  label: ReactNode;
  tone: CheckTone;
  children: ReactNode;
}) {
  const { Icon, className } = TONES[tone];
  return (
    <div className="flex items-start justify-between gap-3 py-2.5 first:pt-0 last:pb-0">
      <dt className="min-w-0 text-sm">{label}</dt>
      <dd className="flex shrink-0 items-center gap-1.5 text-right text-sm font-medium">
        <Icon aria-hidden="true" className={cn('size-4 shrink-0', className)} />
        {children}
      </dd>
    </div>
  );
}
