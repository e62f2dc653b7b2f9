import { useEffect, useRef, type ComponentProps, type KeyboardEvent, type RefObject } from 'react';
import { createPortal } from 'react-dom';

import { FOCUSABLE, trapTab } from '@/lib/focus-trap';
import { cn } from '@/lib/utils';

type FullScreenOverlayProps = Omit<ComponentProps<'div'>, 'role'> & {
  open: boolean;
  onClose: () => void;
  /** Accessible name of the overlay (it has no visible title). */
  label: string;
  /** What takes the focus on open; defaults to the first focusable element. */
  initialFocusRef?: RefObject<HTMLElement | null>;
};

/**
 * A modal layer covering the whole app column (28rem, centred): Escape closes it, Tab stays inside, the
 * page behind does not scroll, and the focus goes back where it was on close.
 */
export function FullScreenOverlay({ open, ...props }: FullScreenOverlayProps) {
  if (!open) return null;
  return createPortal(<OverlayPanel {...props} />, document.body);
}

function OverlayPanel({
  onClose,
  label,
  initialFocusRef,
  className,
  children,
  ...props
}: Omit<FullScreenOverlayProps, 'open'>) {
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    (initialFocusRef?.current ?? panel?.querySelector<HTMLElement>(FOCUSABLE) ?? panel)?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, [initialFocusRef]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (panelRef.current) trapTab(event, panelRef.current);
  }

  return (
    <div className="fixed inset-0 z-50 bg-shell">
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={cn(
          'mx-auto flex h-dvh w-full max-w-md flex-col bg-background outline-none animate-dialog-in md:border-x',
          className,
        )}
        {...props}
      >
        {children}
      </div>
    </div>
  );
}
