import type { Ok } from '@haven/contracts/common';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';
import { thoughtKeys } from '@/lib/thought-keys';

/** DELETE /api/thoughts/:id; a thought that is not the user's answers 404. */
export function deleteThought(id: number): Promise<Ok> {
  return apiFetch<Ok>(`/api/thoughts/${id}`, { method: 'DELETE' });
}

/** Deletes a thought for good, then refetches every thoughts query (day, month, search, insights). */
export function useDeleteThought({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteThought(id),
    onSuccess: async () => {
      toast({ title: 'Thought deleted', description: 'Your thought has been permanently removed.' });
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: thoughtKeys.all });
    },
    onError: (error) =>
      toast({
        title: 'Failed to delete thought',
        description: getErrorMessage(error),
        variant: 'destructive',
      }),
  });
}
