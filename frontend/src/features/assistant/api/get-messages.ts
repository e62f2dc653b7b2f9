import { assistantContract, type Message } from '@haven/contracts/assistant';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';
import { conversationsQueryKey } from './query-keys';

/** The messages of one conversation, oldest first, fetched past any cache. */
export async function getMessages(id: number): Promise<Message[]> {
  try {
    return await api(assistantContract.listMessages, { params: { id }, noCache: true });
  } catch (error) {
    throw new Error('Failed to fetch messages', { cause: error });
  }
}

export const getMessagesQueryKey = (id: number) => [...conversationsQueryKey, id, 'messages'] as const;

/**
 * Spec 4: while awaiting the assistant the list is polled every second, until the latest message is
 * the assistant's and the one before it the user's; polling stops on an error and when the screen
 * is left (the query unmounts).
 */
export function getMessagesQueryOptions(id: number, awaiting: boolean) {
  return queryOptions({
    queryKey: getMessagesQueryKey(id),
    queryFn: () => getMessages(id),
    refetchInterval: (query) => (awaiting && !query.state.error ? 1000 : false),
  });
}

export function useMessages(id: number, awaiting: boolean) {
  return useQuery(getMessagesQueryOptions(id, awaiting));
}

/** True once the reply has come: the latest message is the assistant's, answering the user's. */
export function replied(messages: Message[] | undefined): boolean {
  const last = messages?.at(-1);
  const before = messages?.at(-2);
  return last?.type === 'assistant' && (before === undefined || before.type === 'user');
}
