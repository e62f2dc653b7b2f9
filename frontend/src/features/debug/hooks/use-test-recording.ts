import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';

import { useAudioLevels } from '@/features/thoughts/hooks/use-audio-levels';
import { useAudioRecorder } from '@/features/thoughts/hooks/use-audio-recorder';
import type { VoiceProblem } from '@/features/thoughts/lib/voice-problems';

/** A test recording stops by itself after this long. */
export const TEST_RECORDING_MS = 5_000;

/** A level (0..1) above this counts as sound: speech reaches about 0.4, a quiet room stays near 0.1. */
export const SOUND_LEVEL = 0.2;

/** What a finished test recording holds, for playback and the summary line. */
export interface TestRecording {
  /** An object URL of the audio (revoked when replaced or on leaving). */
  url: string;
  type: string;
  bytes: number;
  /** How long the microphone was open, in ms. */
  durationMs: number;
  /** The loudest level measured while recording (0..1). */
  peak: number;
}

/** Problems after which the microphone is not recording any more. */
const ENDS_RECORDING: ReadonlySet<VoiceProblem> = new Set(['denied', 'no-microphone', 'unavailable']);

/**
 * A short recording through the capture dialog's own recorder (same chunks, bitrate and heartbeat),
 * so the diagnostic tests what voice capture really does. Stops after `TEST_RECORDING_MS` or on `stop`.
 */
export function useTestRecording() {
  const [recording, setRecording] = useState(false);
  // When the microphone opened; the recording's length is counted from there.
  const openedAt = useRef<number | null>(null);
  const [problem, setProblem] = useState<VoiceProblem | null>(null);
  const [result, setResult] = useState<TestRecording | null>(null);

  const recorder = useAudioRecorder({
    enabled: recording,
    onProblem: (next) => {
      setProblem(next);
      if (ENDS_RECORDING.has(next)) setRecording(false);
    },
  });
  const { stream, collectAudio } = recorder;
  // Two levels because the hook keeps the last `count`; the newest is the one shown.
  const level = useAudioLevels(stream, 2)[1] ?? 0;
  const [peak, setPeak] = useState(0);
  if (level > peak) setPeak(level);

  const start = useCallback(() => {
    setResult(null);
    setProblem(null);
    openedAt.current = null;
    setPeak(0);
    setRecording(true);
  }, []);

  const stop = useCallback(async () => {
    const blob = await collectAudio();
    const durationMs = openedAt.current === null ? 0 : Date.now() - openedAt.current;
    setRecording(false);
    if (!blob) {
      setProblem('silent');
      return;
    }
    setResult({ url: URL.createObjectURL(blob), type: blob.type, bytes: blob.size, durationMs, peak });
  }, [collectAudio, peak]);

  // The clock starts once the microphone is open (the permission prompt may take a while).
  const stopInTime = useEffectEvent(() => void stop());
  useEffect(() => {
    if (!stream) return;
    openedAt.current = Date.now();
    const timer = window.setTimeout(stopInTime, TEST_RECORDING_MS);
    return () => window.clearTimeout(timer);
  }, [stream]);

  // Each recording's URL is released when the next one replaces it, and on leaving the screen.
  useEffect(() => (result ? () => URL.revokeObjectURL(result.url) : undefined), [result]);

  return {
    recording,
    /** The open microphone while recording (for the level meter), else null. */
    stream,
    /** The microphone's loudness now (0..1). */
    level,
    problem,
    result,
    start,
    stop,
  };
}
