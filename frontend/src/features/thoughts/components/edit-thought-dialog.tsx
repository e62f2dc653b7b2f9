import type { Thought } from '@haven/contracts/thoughts';

import { EditThoughtForm } from '@/features/thoughts/components/edit-thought-form';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { useDiscardGuard } from '@/features/thoughts/hooks/use-discard-guard';

interface EditThoughtDialogProps {
  /** The thought being edited; `null` keeps the dialog closed. */
  thought: Thought | null;
  onClose: () => void;
}

/**
 * The Edit Thought dialog opened by tapping a thought card (timeline and search). Unsaved changes
 * are kept as a draft of that thought, and closing with them asks first.
 */
export function EditThoughtDialog({ thought, onClose }: EditThoughtDialogProps) {
  const { guardRef, requestClose, confirm } = useDiscardGuard({
    close: onClose,
    title: 'Discard your changes?',
    description: 'Your changes to this thought will be lost. The saved thought stays as it is.',
  });
  return (
    <>
      <Dialog open={thought !== null} onOpenChange={(open) => !open && requestClose()}>
        <DialogContent className="max-w-md">
          {/* Keyed so each opened thought starts from its own saved values. */}
          {thought && (
            <EditThoughtForm key={thought.id} thought={thought} onClose={onClose} guardRef={guardRef} />
          )}
        </DialogContent>
      </Dialog>
      {confirm}
    </>
  );
}
