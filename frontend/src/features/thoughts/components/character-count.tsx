import { useEffect, useState } from 'react';

import { cn } from '@/lib/utils';
import { onFirstUse } from '@/lib/on-first-use';

/** From this many characters on, the count shows under the text box. */
export const COUNT_FROM = 9_000;
/** A screen reader hears the count once typing pauses this long, not on every key. */
const ANNOUNCE_AFTER_MS = 1_000;

const number = onFirstUse(() => new Intl.NumberFormat('en-US'));

/** What the count says at a length: the figure under the box, and the sentence a reader hears. */
export function countMessage(length: number, max: number): { figure: string; sentence: string } {
  const figure = `${number().format(length)} / ${number().format(max)}`;
  if (length > max) {
    const over = length - max;
    return {
      figure,
      sentence: `${number().format(over)} ${over === 1 ? 'character' : 'characters'} over the ${number().format(max)}-character limit. Shorten it to save.`,
    };
  }
  if (length === max)
    return { figure, sentence: `You've reached the ${number().format(max)}-character limit.` };
  const left = max - length;
  return { figure, sentence: `${number().format(left)} ${left === 1 ? 'character' : 'characters'} left.` };
}

/**
 * The character count of the capture box, shown close to the limit: the figure ("9,500 / 10,000")
 * and, at or over the limit, why nothing more goes in or why it cannot be saved. A polite live
 * region repeats it once typing pauses.
 */
export function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  const shown = length >= COUNT_FROM;
  const { figure, sentence } = countMessage(length, max);
  const [announced, setAnnounced] = useState('');
  const spoken = shown ? sentence : '';

  useEffect(() => {
    const timer = window.setTimeout(() => setAnnounced(spoken), ANNOUNCE_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [spoken]);

  return (
    <>
      {shown && (
        <p
          id={id}
          className={cn(
            'flex flex-wrap justify-between gap-x-3 text-xs text-muted-foreground',
            length >= max && 'font-medium text-destructive',
          )}
        >
          <span className={cn(length < max && 'sr-only')}>{sentence}</span>
          <span aria-hidden="true" className="ml-auto tabular-nums">
            {figure}
          </span>
        </p>
      )}
      <span role="status" aria-live="polite" className="sr-only">
        {announced}
      </span>
    </>
  );
}
