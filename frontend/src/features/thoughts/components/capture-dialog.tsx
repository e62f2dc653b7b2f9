import type { Thought } from '@haven/contracts/thoughts';

import { Dialog, DialogContent } from '@/components/ui/dialog';
import { CaptureForm } from '@/features/thoughts/components/capture-form';
import { useDiscardGuard } from '@/features/thoughts/hooks/use-discard-guard';
import type { DiscardChat, StartChat } from '@/features/thoughts/hooks/use-submit-capture';

export interface CaptureDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What a chat-type entry does: the assistant's create-conversation mutation, passed in by the app. */
  startChat: StartChat;
  /** Undo of a chat-type entry: the assistant's delete-conversation call, passed in by the app. */
  discardChat: DiscardChat;
  /** A thought was saved (not a chat, not a save queued offline): the shell offers its actions. */
  onSaved?: (thought: Thought) => void;
  /** The day the screen shows (`yyyy-MM-dd`), when it shows one: entries are dated that day. */
  day?: string;
}

/**
 * The thought-capture dialog opened by the add-thought button: voice (default, or the mode last
 * chosen) or keyboard input, the entry's date, a category, and a submit button that reads 'Save
 * Thought' or 'Start Chat' by the content. What is written is kept as a draft until it is saved, and
 * closing the dialog with writing in it asks first.
 */
export function CaptureDialog({
  open,
  onOpenChange,
  startChat,
  discardChat,
  onSaved,
  day,
}: CaptureDialogProps) {
  const { guardRef, requestClose, confirm } = useDiscardGuard({
    close: () => onOpenChange(false),
    title: 'Discard this thought?',
    description: 'What you wrote will be deleted from this device.',
  });
  return (
    <>
      <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : requestClose())}>
        {/* Held at the top, so the sheet grows downwards (a hint, a notice) and never jumps. */}
        <DialogContent className="mt-[2dvh] max-h-[calc(98dvh-2rem)] self-start sm:mt-0 sm:self-center">
          {/* Only rendered while open: each opening starts a fresh form and recording. */}
          <CaptureForm
            guardRef={guardRef}
            day={day}
            onDone={(saved) => {
              onOpenChange(false);
              if (saved) onSaved?.(saved);
            }}
            startChat={startChat}
            discardChat={discardChat}
          />
        </DialogContent>
      </Dialog>
      {confirm}
    </>
  );
}
