import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Whether the element's text is cut by its clamp (its content is taller than its box). Measured
 * again when its size changes: a narrower screen, fonts or Markdown arriving, the clamp lifted.
 * Once lifted (`expanded`), the last answer stands, so "Show less" stays to fold it again.
 */
export function useClamped(ref: RefObject<HTMLElement | null>, expanded: boolean): boolean {
  const [clamped, setClamped] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || expanded) return;
    // A pixel of slack: rounding can leave scrollHeight one above clientHeight on text that fits.
    const measure = () => setClamped(element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, [ref, expanded]);
  return clamped;
}
