import type { CaptureMode } from '@/features/thoughts/components/mode-switch';

const keyOf = (userId: number) => `haven:capture-mode:${userId}`;

/** The capture mode the user last chose on this device; voice (the spec's default) until they choose. */
export function rememberedMode(userId: number | null): CaptureMode {
  if (userId === null) return 'voice';
  try {
    return localStorage.getItem(keyOf(userId)) === 'keyboard' ? 'keyboard' : 'voice';
  } catch {
    return 'voice';
  }
}

/** Remembers a mode the user chose (a switch forced by a microphone problem is not a choice). */
export function rememberMode(userId: number | null, mode: CaptureMode): void {
  if (userId === null) return;
  try {
    localStorage.setItem(keyOf(userId), mode);
  } catch {
    // Storage refused: the next opening starts in voice mode.
  }
}
