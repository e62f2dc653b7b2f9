import type { Thought } from '@haven/contracts/thoughts';

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { CaptureForm } from '@/features/thoughts/components/capture-form';
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
}

/**
 * The thought-capture dialog opened by the add-thought button: voice (default) or keyboard input,
 * a category, and a submit button that reads 'Save Thought' or 'Start Chat' by the content.
 */
export function CaptureDialog({ open, onOpenChange, startChat, discardChat, onSaved }: CaptureDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New Thought</DialogTitle>
          <DialogDescription>Speak or type what&apos;s on your mind.</DialogDescription>
        </DialogHeader>
        {/* Only rendered while open: each opening starts a fresh form and recording. */}
        <CaptureForm
          onDone={(saved) => {
            onOpenChange(false);
            if (saved) onSaved?.(saved);
          }}
          startChat={startChat}
          discardChat={discardChat}
        />
      </DialogContent>
    </Dialog>
  );
}
