import type { EmailItem } from '@haven/contracts/mail';
import { useState } from 'react';

import { toast } from '@/hooks/use-toast';
import { useEmails } from '../api/digest';

/** The e-mail the reply queue shows, its place in the queue, and how to pass it over. */
export interface ReplyQueueStep {
  email: EmailItem;
  /** 1 for the first e-mail of the queue. */
  position: number;
  /** The e-mails passed so far, this one, and those still waiting. */
  total: number;
  /** Leaves this e-mail as it is (it still needs a reply) and opens the next. */
  skip: () => void;
}

interface Queue {
  /** Held by the queue, so a digest refresh never swaps the e-mail under the user's hands. */
  current: EmailItem;
  /** The ids answered, drafted or skipped, in order. */
  passed: string[];
  /** How many of `passed` still need a reply (drafted or skipped). */
  unanswered: number;
}

const stillNeed = (n: number) => `${n} ${n === 1 ? 'email still needs' : 'emails still need'} a response.`;

/**
 * The reply queue: the digest's e-mails needing a reply, one after another, in the list's order.
 * Each step ends by a send (the e-mail leaves 'Needs reply'), a saved draft or a skip (it stays);
 * after the last, a toast says what is left. Mail that comes to need a reply meanwhile joins it.
 */
export function useReplyQueue() {
  const { data } = useEmails();
  const [queue, setQueue] = useState<Queue | null>(null);
  const waiting = (passed: readonly string[]) =>
    data?.emails.filter((e) => e.needsReply && !passed.includes(e.id)) ?? [];

  /** Moves past the current e-mail; `answered` when it was sent a reply. */
  function next(answered: boolean) {
    if (!queue) return;
    const passed = [...queue.passed, queue.current.id];
    const unanswered = queue.unanswered + (answered ? 0 : 1);
    const [following] = waiting(passed);
    if (following) return setQueue({ current: following, passed, unanswered });
    setQueue(null);
    toast(
      unanswered === 0
        ? { title: 'All caught up', description: 'Email sent. Nothing else needs a response.' }
        : { title: 'End of the reply queue', description: stillNeed(unanswered) },
    );
  }

  const step: ReplyQueueStep | null = queue && {
    email: queue.current,
    position: queue.passed.length + 1,
    total: queue.passed.length + 1 + waiting([...queue.passed, queue.current.id]).length,
    skip: () => next(false),
  };

  return {
    step,
    /** Opens the first e-mail needing a reply (nothing when none does). */
    start() {
      const [first] = waiting([]);
      if (first) setQueue({ current: first, passed: [], unanswered: 0 });
    },
    next,
    /** Ends the queue where it is (the dialog closed). */
    stop: () => setQueue(null),
  };
}
