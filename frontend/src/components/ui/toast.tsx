import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';

import { Button, type ButtonProps } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * A labelled region (a landmark, so screen readers can find it) at the bottom of the phone column,
 * above the tab bar and its raised add button, never over a screen's header or back arrow; bottom
 * right from `md` up, at most 420 px wide there.
 */
export function ToastViewport({ className, label, ...props }: ComponentProps<'ol'> & { label: string }) {
  return (
    <section
      aria-label={label}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] mx-auto w-full max-w-md md:inset-x-auto md:right-0 md:max-w-[420px]"
    >
      <ol
        className={cn(
          'flex max-h-dvh w-full flex-col gap-2 p-4 pb-[calc(6rem+env(safe-area-inset-bottom))]',
          className,
        )}
        {...props}
      />
    </section>
  );
}

export const toastVariants = cva(
  'pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-lg animate-toast-in',
  {
    variants: {
      variant: {
        default: 'border-border bg-card text-card-foreground',
        destructive: 'border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export type ToastVariant = NonNullable<VariantProps<typeof toastVariants>['variant']>;

export function Toast({
  className,
  variant,
  ...props
}: ComponentProps<'li'> & VariantProps<typeof toastVariants>) {
  return (
    <li
      role={variant === 'destructive' ? 'alert' : 'status'}
      aria-atomic="true"
      data-variant={variant ?? 'default'}
      className={cn('group', toastVariants({ variant }), className)}
      {...props}
    />
  );
}

export function ToastTitle({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('text-sm opacity-90', className)} {...props} />;
}

/** The toast's own action, e.g. 'Undo' or 'Try Again'. */
export function ToastAction({ className, variant = 'outline', size = 'sm', ...props }: ButtonProps) {
  return (
    <Button
      variant={variant}
      size={size}
      className={cn(
        'shrink-0 self-center group-data-[variant=destructive]:border-destructive-foreground/40 group-data-[variant=destructive]:bg-transparent group-data-[variant=destructive]:text-destructive-foreground group-data-[variant=destructive]:hover:bg-destructive-foreground/10',
        className,
      )}
      {...props}
    />
  );
}

export function ToastClose({ className, ...props }: ComponentProps<'button'>) {
  return (
    <button
      type="button"
      aria-label="Close"
      className={cn(
        'absolute right-2 top-2 rounded-md p-1 opacity-70 transition-opacity hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-current',
        className,
      )}
      {...props}
    >
      <X className="size-4" aria-hidden="true" />
    </button>
  );
}
