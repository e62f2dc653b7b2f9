import { useEffect, useState } from 'react';

import { WAVEFORM_SAMPLE_MS } from '@/features/thoughts/lib/capture-constants';

/** Square-root scaling lifts quiet speech into view without clipping loud speech too early. */
function toLevel(rms: number): number {
  return Math.min(1, Math.sqrt(rms) * 1.8);
}

/**
 * The recent loudness of a microphone stream as `count` levels between 0 and 1, oldest first.
 * A new level is measured every 50 ms (AudioContext + AnalyserNode, on animation frames), so the
 * bars scroll; with no stream every level is 0.
 */
export function useAudioLevels(stream: MediaStream | null, count: number): number[] {
  const [levels, setLevels] = useState<number[]>(() => new Array<number>(count).fill(0));

  useEffect(() => {
    if (!stream) return;
    const context = new AudioContext();
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    source.connect(analyser);
    // A context created without a recent user gesture starts suspended and would measure nothing.
    void context.resume().catch(() => undefined);

    const samples = new Uint8Array(analyser.fftSize);
    let frame = 0;
    let lastSample = 0;
    const tick = (now: number) => {
      frame = requestAnimationFrame(tick);
      if (now - lastSample < WAVEFORM_SAMPLE_MS) return;
      lastSample = now;
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += ((sample - 128) / 128) ** 2;
      const level = toLevel(Math.sqrt(sum / samples.length));
      setLevels((previous) => [...previous, level].slice(-count));
    };
    frame = requestAnimationFrame(tick);

    return () => {
      cancelAnimationFrame(frame);
      source.disconnect();
      analyser.disconnect();
      void context.close().catch(() => undefined);
    };
  }, [stream, count]);

  return stream ? levels : new Array<number>(count).fill(0);
}
