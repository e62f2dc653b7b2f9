import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Whether the element's text is cut by its clamp (its content is taller than its box). Measured
 * again when its size or content changes: a narrower screen, fonts or Markdown arriving.
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
    const resized = new ResizeObserver(measure);
    resized.observe(element);
    // The clamped box keeps its height when what is inside changes (the Markdown replacing its
    // plain-text stand-in), so changes inside are watched too.
    const changed = new MutationObserver(measure);
    changed.observe(element, { childList: true, subtree: true, characterData: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, [ref, expanded]);
  return clamped;
}
