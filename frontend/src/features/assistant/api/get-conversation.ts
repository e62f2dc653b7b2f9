import { assistantContract, type Conversation } from '@haven/contracts/assistant';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';
import { conversationsQueryKey } from './query-keys';

/** One conversation; another user's id answers 404. */
export async function getConversation(id: number): Promise<Conversation> {
  try {
    return await api(assistantContract.get, { params: { id } });
  } catch (error) {
    throw new Error('Failed to fetch conversation', { cause: error });
  }
}

export const getConversationQueryKey = (id: number) => [...conversationsQueryKey, id] as const;

export function getConversationQueryOptions(id: number) {
  return queryOptions({ queryKey: getConversationQueryKey(id), queryFn: () => getConversation(id) });
}

export function useConversation(id: number) {
  return useQuery(getConversationQueryOptions(id));
}
