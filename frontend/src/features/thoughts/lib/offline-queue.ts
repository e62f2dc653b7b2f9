import { createStore, del, entries, set } from 'idb-keyval';

import type { thoughtsContract } from '@haven/contracts/thoughts';
import type { ApiBody } from '@/lib/api';

/** A thought as it is sent: its client key, `clientDate` and `timezoneOffset` are kept as typed. */
export type QueuedThought = ApiBody<typeof thoughtsContract.create> & {
  clientKey: string;
  clientDate: string;
  timezoneOffset: number;
};

/** Thoughts saved on this device while the server could not be reached, oldest first. */
const store = () => createStore('haven-offline', 'pending-thoughts');

export async function enqueueThought(thought: QueuedThought): Promise<void> {
  await set(thought.clientKey, thought, store());
}

export async function queuedThoughts(): Promise<QueuedThought[]> {
  const all = await entries<string, QueuedThought>(store());
  return all.map(([, thought]) => thought).sort((a, b) => a.clientDate.localeCompare(b.clientDate));
}

export async function dequeueThought(clientKey: string): Promise<void> {
  await del(clientKey, store());
}

/** The user's calendar day of a queued thought, as the server will file it. */
export function queuedLocalDate(thought: QueuedThought): string {
  return new Date(new Date(thought.clientDate).getTime() - thought.timezoneOffset * 60_000)
    .toISOString()
    .slice(0, 10);
}
