import { LoaderCircle } from 'lucide-react';

import { Button, type ButtonProps } from '@/components/ui/button';

/**
 * A button that shows a spinner and is disabled while `pending`. The visible text (and so the
 * accessible name) stays the same, so a test or screen reader finds the same button throughout.
 */
export function PendingButton({
  pending = false,
  disabled,
  children,
  ...props
}: ButtonProps & { pending?: boolean }) {
  return (
    <Button disabled={pending || disabled} aria-busy={pending || undefined} {...props}>
      {pending && <LoaderCircle className="animate-spin" aria-hidden="true" />}
      {children}
    </Button>
  );
}
