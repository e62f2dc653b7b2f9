import { MessageCircle, NotebookPen } from 'lucide-react';

import { Button } from '@/components/ui/button';

interface ChatHintProps {
  /** The classifier read the text as a question or request for the assistant. */
  readAsChat: boolean;
  /** The user chose to keep it as a thought anyway. */
  keptAsThought: boolean;
  onKeepAsThought: () => void;
  onSendAsChat: () => void;
}

/**
 * Says before sending that a capture will go to the assistant, with a way to save it as a thought
 * instead (and back). The region is always there, so a screen reader hears the hint when it appears.
 */
export function ChatHint({ readAsChat, keptAsThought, onKeepAsThought, onSendAsChat }: ChatHintProps) {
  return (
    <div aria-live="polite" className="empty:hidden">
      {readAsChat && !keptAsThought && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-accent/30 bg-accent-soft px-3 pt-2 pb-0.5 text-sm">
          <span className="flex min-w-0 flex-1 basis-48 items-center gap-2">
            <MessageCircle aria-hidden="true" className="size-4 shrink-0 text-accent" />
            This will go to the assistant as a question.
          </span>
          <Button variant="link" className="h-11 px-0 font-semibold" onClick={onKeepAsThought}>
            Save as a thought instead
          </Button>
        </div>
      )}
      {readAsChat && keptAsThought && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border bg-muted/50 px-3 pt-2 pb-0.5 text-sm">
          <span className="flex min-w-0 flex-1 basis-48 items-center gap-2">
            <NotebookPen aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
            This will be saved as a thought.
          </span>
          <Button variant="link" className="h-11 px-0 font-semibold" onClick={onSendAsChat}>
            Ask the assistant instead
          </Button>
        </div>
      )}
    </div>
  );
}
