import { useLayoutEffect, type RefObject } from 'react';

/**
 * Grows a text areaRef with its text (its CSS `min-height` and `max-height` bound it; past the
 * maximum it scrolls), so a long entry can be read and edited whole.
 */
export function useAutosize(areaRef: RefObject<HTMLTextAreaElement | null>, value: string): void {
  useLayoutEffect(() => {
    const box = areaRef.current;
    if (!box) return;
    box.style.height = 'auto';
    const borders = box.offsetHeight - box.clientHeight;
    box.style.height = `${box.scrollHeight + borders}px`;
  }, [areaRef, value]);
}
