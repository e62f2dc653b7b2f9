import type { ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { AccountNotice } from './account-notice';
import { ActionDialog } from './action-dialog';
import type { OutgoingEmailInput } from './send-email';
import type { SendEmailState } from './use-send-email';

interface SendEmailDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The dialog's `useSendEmail`. */
  sending: SendEmailState;
  /** The e-mail as the fields hold it now. */
  email: OutgoingEmailInput;
  /** 'Send Email' or 'Send Response'. */
  sendLabel: string;
  canSend: boolean;
  /** Whether 'Save Draft' may be pressed; without it the dialog has no 'Save Draft'. */
  canDraft?: boolean;
  /** The fields. */
  children: ReactNode;
}

/**
 * The body shared by the e-mail dialogs: their fields, the notice offering to connect Gmail when it
 * is the cause of a failure, and Cancel, 'Save Draft' and send. Buttons stay focusable while busy
 * (a second press is ignored), so focus, and Escape with it, stays in the dialog.
 */
export function SendEmailDialog({
  open,
  onOpenChange,
  title,
  sending,
  email,
  sendLabel,
  canSend,
  canDraft,
  children,
}: SendEmailDialogProps) {
  const { busy, problem } = sending;
  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      actions={
        <>
          {canDraft !== undefined && (
            <Button
              variant="outline"
              disabled={!canDraft}
              aria-disabled={busy !== null || undefined}
              onClick={() => sending.saveDraft(email)}
            >
              {busy === 'draft' ? 'Saving...' : 'Save Draft'}
            </Button>
          )}
          <Button
            disabled={!canSend}
            aria-disabled={busy !== null || undefined}
            onClick={() => sending.send(email)}
          >
            {busy === 'send' ? 'Sending...' : sendLabel}
          </Button>
        </>
      }
      confirmation={sending.confirmation}
    >
      {children}
      {problem && <AccountNotice problem={problem} type="email" />}
    </ActionDialog>
  );
}
