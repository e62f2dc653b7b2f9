import type { Thought, UpdateThoughtBody } from '@haven/contracts/thoughts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';
import { thoughtKeys } from '@/lib/thought-keys';

/** PATCH /api/thoughts/:id with only the fields that changed; answers the updated thought. */
export function updateThought(id: number, changes: UpdateThoughtBody): Promise<Thought> {
  return apiFetch<Thought>(`/api/thoughts/${id}`, { method: 'PATCH', body: changes });
}

/**
 * Saves an edit. Every thoughts query (day, month, search, insights references) is refetched after
 * it, since any of them may show the changed thought.
 */
export function useUpdateThought({ onSuccess }: { onSuccess?: (thought: Thought) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateThoughtBody }) => updateThought(id, changes),
    onSuccess: async (thought) => {
      toast({ title: 'Thought updated', description: 'Your changes have been saved.' });
      onSuccess?.(thought);
      await queryClient.invalidateQueries({ queryKey: thoughtKeys.all });
    },
    onError: (error) =>
      toast({
        title: 'Failed to update thought',
        description: getErrorMessage(error),
        variant: 'destructive',
      }),
  });
}
