/** Appends spoken words to what is already written, with exactly one space between them. */
export function joinText(before: string, after: string): string {
  if (!after) return before;
  if (!before || /\s$/.test(before)) return before + after;
  return `${before} ${after}`;
}
