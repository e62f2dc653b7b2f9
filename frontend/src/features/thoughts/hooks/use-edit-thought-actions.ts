import { useDeleteThought } from '@/features/thoughts/api/delete-thought';
import { useUpdateThought } from '@/features/thoughts/api/update-thought';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';

interface EditThoughtActionsOptions {
  /** Deletes the draft kept of the edited text. */
  forget: () => Promise<void>;
  onClose: () => void;
}

/**
 * Save and Delete of the Edit Thought form. Either, once done, drops the kept draft, says so and
 * closes the form; a failure is said in a toast and the form stays open.
 */
export function useEditThoughtActions({ forget, onClose }: EditThoughtActionsOptions) {
  const update = useUpdateThought({
    mutationConfig: {
      onSuccess: () => {
        void forget();
        toast({ title: 'Thought updated', description: 'Your changes have been saved.' });
        onClose();
      },
      onError: (error) =>
        toast({
          title: 'Failed to update thought',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });
  const remove = useDeleteThought({
    mutationConfig: {
      onSuccess: () => {
        void forget();
        toast({ title: 'Thought deleted', description: 'Your thought has been permanently removed.' });
        onClose();
      },
      onError: (error) =>
        toast({
          title: 'Failed to delete thought',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });
  return { update, remove };
}
