import { useCallback, useEffect, useRef, useState } from 'react';

import { deleteDraft, readDraft, writeDraft } from '@/lib/drafts';
import { useSignedInUserId } from '@/lib/signed-in-user';

interface DraftOptions {
  /** Where the draft lives: 'capture', or one per edited thought. */
  slot: string;
  /** The text in the box now. */
  text: string;
  /** Whether `text` is worth keeping (not blank, or changed from what is saved). */
  unsaved: boolean;
  /** The kept draft, once read: put it back in the box. Not called when there is none. */
  onRestore: (text: string) => void;
}

/**
 * Keeps a box's unsaved text on this device as it is typed and offers it back on the next opening
 * (`restored` says so). Nothing is written before the kept draft has been read, so opening never
 * overwrites it. `forget` deletes the draft for good (saved, or discarded by the user).
 */
export function useDraft({ slot, text, unsaved, onRestore }: DraftOptions) {
  const userId = useSignedInUserId();
  const [ready, setReady] = useState(false);
  const [restored, setRestored] = useState(false);
  const forgotten = useRef(false);
  const restore = useRef(onRestore);
  useEffect(() => {
    restore.current = onRestore;
  }, [onRestore]);

  useEffect(() => {
    if (userId === null) return;
    let cancelled = false;
    void readDraft(userId, slot).then((draft) => {
      if (cancelled) return;
      if (draft && draft.text.trim() !== '') {
        restore.current(draft.text);
        setRestored(true);
      }
      setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [userId, slot]);

  useEffect(() => {
    if (!ready || userId === null || forgotten.current) return;
    void (unsaved ? writeDraft(userId, slot, text) : deleteDraft(userId, slot));
  }, [ready, userId, slot, text, unsaved]);

  const forget = useCallback(async () => {
    forgotten.current = true;
    if (userId !== null) await deleteDraft(userId, slot);
  }, [userId, slot]);

  return { restored, forget };
}
