import { useEffect, useEffectEvent, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * `value` once it has stayed the same for `delay` ms; values `immediate` accepts pass at once.
 * `onSettle` hears a value the moment it settles, before it is drawn (to start what it needs), and
 * the settled value is drawn in that same task rather than after the next paint, so what its render
 * starts (a query's fetch, in an effect) is not held back by a frame.
 */
export function useDebouncedValue<T>(
  value: T,
  delay: number,
  immediate?: (value: T) => boolean,
  onSettle?: (value: T) => void,
): T {
  const [settled, setSettled] = useState(value);
  const now = immediate?.(value) ?? false;
  const settle = useEffectEvent((next: T) => {
    onSettle?.(next);
    flushSync(() => setSettled(next));
  });
  useEffect(() => {
    // A value that passes at once is already drawn; settling it too keeps the two in step.
    if (now) {
      const timer = setTimeout(() => setSettled(value));
      return () => clearTimeout(timer);
    }
    const timer = setTimeout(() => settle(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay, now]);
  return now ? value : settled;
}
