import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';

import { cn } from '@/lib/utils';

export const toggleVariants = cva(
  'inline-flex shrink-0 items-center justify-center gap-1.5 whitespace-nowrap rounded-lg text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-50 [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        /** For a segmented control on a muted track: the pressed item lifts onto a card. */
        segment:
          'text-muted-foreground hover:text-foreground aria-pressed:bg-card aria-pressed:text-foreground aria-pressed:shadow-sm',
        /** A stand-alone chip: outlined, filled with the soft accent while pressed. */
        outline:
          'border border-input bg-card text-muted-foreground hover:bg-muted hover:text-foreground aria-pressed:border-accent aria-pressed:bg-accent-soft aria-pressed:text-accent aria-pressed:hover:bg-accent-soft',
      },
      size: {
        // At least 44 px high, what a thumb needs; `sm` is smaller type, not a smaller target.
        default: 'h-11 px-3',
        sm: 'h-11 px-3 text-xs',
      },
    },
    defaultVariants: { variant: 'outline', size: 'default' },
  },
);

type ToggleProps = Omit<ComponentProps<'button'>, 'onChange'> &
  VariantProps<typeof toggleVariants> & {
    pressed: boolean;
    onPressedChange?: (pressed: boolean) => void;
  };

/** A two-state button announced with `aria-pressed` (shadcn-style, no Radix). */
export function Toggle({
  pressed,
  onPressedChange,
  onClick,
  className,
  variant,
  size,
  ...props
}: ToggleProps) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      className={cn(toggleVariants({ variant, size }), className)}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) onPressedChange?.(!pressed);
      }}
      {...props}
    />
  );
}
