import { CircleCheck, CircleX, LoaderCircle, Mail, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

type Tone = 'pending' | 'success' | 'error' | 'info';

const tones: Record<Tone, { icon: LucideIcon; className: string }> = {
  pending: { icon: LoaderCircle, className: 'bg-accent-soft text-accent [&_svg]:animate-spin' },
  success: { icon: CircleCheck, className: 'bg-emerald-500/15 text-emerald-600 dark:text-emerald-400' },
  error: { icon: CircleX, className: 'bg-destructive/15 text-destructive dark:text-red-400' },
  info: { icon: Mail, className: 'bg-accent-soft text-accent' },
};

interface StatusMessageProps {
  tone: Tone;
  title: ReactNode;
  children?: ReactNode;
  /** Buttons or links under the message. */
  actions?: ReactNode;
  className?: string;
}

/**
 * The outcome of a flow (verifying, verified, failed, e-mail sent): a round icon, a heading and text.
 * Announced politely so screen readers hear the change from verifying to the result.
 */
export function StatusMessage({ tone, title, children, actions, className }: StatusMessageProps) {
  const { icon: Icon, className: toneClass } = tones[tone];
  return (
    <section
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn('flex flex-col items-center gap-4 py-6 text-center', className)}
    >
      <div className={cn('flex size-16 items-center justify-center rounded-full', toneClass)}>
        <Icon className="size-8" aria-hidden="true" />
      </div>
      <div className="flex flex-col gap-2">
        <h2 className="text-xl font-semibold tracking-tight">{title}</h2>
        {children && <div className="text-sm leading-relaxed text-muted-foreground">{children}</div>}
      </div>
      {actions && <div className="flex w-full flex-col gap-2 pt-2">{actions}</div>}
    </section>
  );
}
