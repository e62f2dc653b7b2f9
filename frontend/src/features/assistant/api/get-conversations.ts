import { assistantContract, type Conversation } from '@haven/contracts/assistant';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';
import { conversationsQueryKey } from './query-keys';

/** The user's conversations, most recently updated first, with the cards' badges. */
export async function getConversations(): Promise<Conversation[]> {
  try {
    return await api(assistantContract.list, { noCache: true });
  } catch (error) {
    throw new Error('Failed to fetch conversations', { cause: error });
  }
}

export const getConversationsQueryKey = () => [...conversationsQueryKey, 'list'] as const;

export function getConversationsQueryOptions() {
  return queryOptions({ queryKey: getConversationsQueryKey(), queryFn: getConversations });
}

export function useConversations() {
  return useQuery(getConversationsQueryOptions());
}
