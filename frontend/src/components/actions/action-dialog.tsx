import type { ReactNode } from 'react';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

interface ActionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The form's fields. */
  children: ReactNode;
  /** The buttons after Cancel. */
  actions: ReactNode;
  /** The confirmation asked before acting, shown while `asking` (the user's privacy preference). */
  confirmation: {
    asking: boolean;
    onAskingChange: (asking: boolean) => void;
    title: string;
    description: string;
    confirmLabel: string;
    onConfirm: () => void;
  };
}

/**
 * The shell of the dialogs that act for the user (create an event, send or save an e-mail): a
 * scrolling form with Cancel and its actions, and the confirmation asked before acting.
 */
export function ActionDialog({
  open,
  onOpenChange,
  title,
  children,
  actions,
  confirmation,
}: ActionDialogProps) {
  const { asking, onAskingChange, ...confirm } = confirmation;
  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent showCloseButton className="max-h-[90dvh] overflow-y-auto">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
          </DialogHeader>
          <div className="flex flex-col gap-3">{children}</div>
          {/* Two even columns; a third button takes a row of its own (no uneven wrap at 390 px). */}
          <DialogFooter className="grid grid-cols-2 [&>*:nth-child(3):last-child]:col-span-2">
            <DialogClose>Cancel</DialogClose>
            {actions}
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog open={asking} onOpenChange={onAskingChange} {...confirm} />
    </>
  );
}
