import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { CreateThoughtBody, Thought } from '@haven/contracts/thoughts';
import { toast } from '@/hooks/use-toast';
import { apiFetch, getErrorMessage } from '@/lib/api-client';
import { thoughtKeys } from '@/lib/thought-keys';

/** POST /api/thoughts: saves (encrypted) and answers the new thought (201). */
export function createThought(body: CreateThoughtBody): Promise<Thought> {
  return apiFetch<Thought>('/api/thoughts', { method: 'POST', body });
}

/** Saves a thought, says so and refreshes every thoughts view; errors are toasted here. */
export function useCreateThought() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createThought,
    onSuccess: () => {
      toast({ title: 'Thought saved', description: 'Your thought has been encrypted and saved.' });
      // Not awaited: the dialog closes at once while the lists refetch in the background.
      void queryClient.invalidateQueries({ queryKey: thoughtKeys.all });
    },
    onError: (error) => {
      toast({
        title: 'Submission error',
        description: getErrorMessage(error, 'Failed to save your thought. Please try again.'),
        variant: 'destructive',
      });
    },
  });
}
