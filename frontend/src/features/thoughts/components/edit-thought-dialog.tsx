import type { Thought } from '@haven/contracts/thoughts';

import { EditThoughtForm } from '@/features/thoughts/components/edit-thought-form';
import { Dialog, DialogContent } from '@/components/ui/dialog';

interface EditThoughtDialogProps {
  /** The thought being edited; `null` keeps the dialog closed. */
  thought: Thought | null;
  onClose: () => void;
}

/** The Edit Thought dialog opened by tapping a thought card (timeline and search). */
export function EditThoughtDialog({ thought, onClose }: EditThoughtDialogProps) {
  return (
    <Dialog open={thought !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        {/* Keyed so each opened thought starts from its own saved values. */}
        {thought && <EditThoughtForm key={thought.id} thought={thought} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}
