import { ComposeEmailDialog } from '@/components/actions/compose-email-dialog';
import { Button } from '@/components/ui/button';
import { DraftNotes, type ProposedDraft } from './proposals';

/**
 * Above the fields of an assistant's draft: what to know about it, and for a recipient the user
 * may not know (see `recipientNotice`), which is never filled in, 'Use this address' to take it.
 */
function DraftNotices({
  draft,
  to,
  takeAddress,
}: {
  draft: ProposedDraft;
  /** The recipient as the field holds it now. */
  to: string;
  takeAddress: (to: string) => void;
}) {
  if (!draft.notice && !draft.journalLeftOut) return null;
  const offered = draft.notice && to !== draft.to;
  return (
    <div className="flex flex-col gap-2 rounded-lg border border-border bg-muted/60 p-2.5">
      <DraftNotes draft={draft} />
      {offered && (
        <Button size="sm" variant="outline" className="self-start" onClick={() => takeAddress(draft.to)}>
          Use this address
        </Button>
      )}
    </div>
  );
}

/**
 * 'Draft Email' from an assistant message (the conversation's kind of the one compose dialog). A
 * recipient the user may not know is left out of the field and offered beside it.
 */
export function AssistantDraftDialog({
  draft,
  onClose,
  confirm,
}: {
  draft: ProposedDraft | null;
  onClose: () => void;
  /** askBeforeEmails: confirm before sending. */
  confirm: boolean;
}) {
  return (
    <ComposeEmailDialog
      key={draft ? draft.subject + draft.body : 'none'}
      kind="conversation"
      open={draft !== null}
      onOpenChange={(open) => !open && onClose()}
      prefill={
        draft ? { to: draft.notice ? '' : draft.to, subject: draft.subject, body: draft.body } : undefined
      }
      notes={(email, takeAddress) =>
        draft && <DraftNotices draft={draft} to={email.to} takeAddress={takeAddress} />
      }
      confirm={confirm}
    />
  );
}
