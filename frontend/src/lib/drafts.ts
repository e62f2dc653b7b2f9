import { clear, createStore, del, get, set } from 'idb-keyval';

/**
 * Unsaved writing kept on this device as it is typed (IndexedDB), one draft per user and place
 * (the capture sheet, the editor of one thought), so a closed sheet, a reload or a crash loses no
 * word. A save deletes its draft; logging out deletes them all.
 */

/** A draft as stored: the text, and when it was last typed. */
export interface Draft {
  text: string;
  updatedAt: number;
}

const store = () => createStore('haven-drafts', 'drafts');
const keyOf = (userId: number, slot: string) => `${userId}:${slot}`;

/** The user's draft in `slot`, or undefined when there is none (or storage is refused). */
export async function readDraft(userId: number, slot: string): Promise<Draft | undefined> {
  try {
    return await get<Draft>(keyOf(userId, slot), store());
  } catch {
    return undefined;
  }
}

/** Keeps `text` as the user's draft in `slot`; blank text deletes the draft. */
export async function writeDraft(userId: number, slot: string, text: string): Promise<void> {
  try {
    if (text.trim() === '') await del(keyOf(userId, slot), store());
    else await set(keyOf(userId, slot), { text, updatedAt: Date.now() } satisfies Draft, store());
  } catch {
    // Storage refused (private mode, quota): the text is still in the box.
  }
}

/** Deletes the user's draft in `slot` (it was saved, or the user discarded it). */
export async function deleteDraft(userId: number, slot: string): Promise<void> {
  try {
    await del(keyOf(userId, slot), store());
  } catch {
    // Nothing stored, or storage refused.
  }
}

/** Deletes every draft on this device (at logout). */
export async function clearDrafts(): Promise<void> {
  try {
    await clear(store());
  } catch {
    // Nothing stored, or storage refused.
  }
}
