import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';

/** What a form tells its dialog before it closes. */
export interface DiscardGuard {
  /** Whether the form holds writing that is not saved. */
  unsaved: () => boolean;
  /** The user chose to discard it: delete its draft. */
  discard: () => void;
}

interface DiscardGuardOptions {
  /** Closes the dialog for good. */
  close: () => void;
  title: string;
  description: string;
}

/**
 * Asks before a dialog holding unsaved writing closes (Escape, a tap outside, Cancel): keep writing,
 * or discard it. The form registers itself in `guardRef`; `requestClose` is the dialog's way out, and
 * `confirm` the question, rendered beside the dialog.
 */
export function useDiscardGuard({ close, title, description }: DiscardGuardOptions): {
  guardRef: RefObject<DiscardGuard | null>;
  requestClose: () => void;
  confirm: ReactNode;
} {
  const guardRef = useRef<DiscardGuard | null>(null);
  const [asking, setAsking] = useState(false);

  function requestClose() {
    if (guardRef.current?.unsaved()) setAsking(true);
    else close();
  }

  const confirm = (
    <ConfirmDialog
      open={asking}
      onOpenChange={setAsking}
      title={title}
      description={description}
      cancelLabel="Keep writing"
      confirmLabel="Discard"
      destructive
      onConfirm={() => {
        guardRef.current?.discard();
        close();
      }}
    />
  );
  return { guardRef, requestClose, confirm };
}

/**
 * A form's side of the guard: fills the dialog's `guardRef` while the form is mounted. The dialog
 * asks `guard` as it was at the last render, so it may be a new object on every render.
 */
export function useRegisterDiscardGuard(guardRef: { current: DiscardGuard | null }, guard: DiscardGuard) {
  const latest = useRef(guard);
  useEffect(() => {
    latest.current = guard;
  });
  useEffect(() => {
    guardRef.current = {
      unsaved: () => latest.current.unsaved(),
      discard: () => latest.current.discard(),
    };
    return () => {
      guardRef.current = null;
    };
  }, [guardRef]);
}
