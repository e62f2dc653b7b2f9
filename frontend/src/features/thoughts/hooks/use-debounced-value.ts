import { useEffect, useState } from 'react';

/** `value` once it has stayed the same for `delay` ms; values `immediate` accepts pass at once. */
export function useDebouncedValue<T>(value: T, delay: number, immediate?: (value: T) => boolean): T {
  const [settled, setSettled] = useState(value);
  const now = immediate?.(value) ?? false;
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), now ? 0 : delay);
    return () => clearTimeout(timer);
  }, [value, delay, now]);
  return now ? value : settled;
}
