import { useCallback, useEffect, useEffectEvent, useState } from 'react';

import { useAudioRecorder } from '@/features/thoughts/hooks/use-audio-recorder';
import { useSpeechRecognition } from '@/hooks/use-speech-recognition';
import { CAPTURE_START_DELAY_MS } from '@/features/thoughts/lib/capture-constants';
import { getSpeechRecognition } from '@/lib/speech-recognition';
import { VOICE_PROBLEMS, type VoiceNotice, type VoiceProblem } from '@/features/thoughts/lib/voice-problems';
import { toast } from '@/hooks/use-toast';

interface VoiceCaptureOptions {
  /** Whether the dialog is in voice mode. */
  voiceMode: boolean;
  /** A finished spoken phrase, to append to the text. */
  onTranscript: (transcript: string) => void;
  /** The microphone or recognizer failed for good: switch to keyboard mode, saying why in the sheet. */
  onFallback: (notice: VoiceNotice) => void;
}

/**
 * Speech recognition plus audio recording for the capture dialog, started 100 ms after mount while
 * in voice mode. A problem that ends in keyboard mode is handed to `onFallback` to say in the sheet;
 * the others are toasted here (a stopped recording, a warning).
 */
export function useVoiceCapture({ voiceMode, onTranscript, onFallback }: VoiceCaptureOptions) {
  const [started, setStarted] = useState(false);
  // Set by a network error: recording stays off until the user resumes or switches modes.
  const [stopped, setStopped] = useState(false);
  const listening = voiceMode && started && !stopped;

  const report = useCallback(
    (problem: VoiceProblem) => {
      const reaction = VOICE_PROBLEMS[problem];
      if (reaction.then === 'keyboard') return onFallback(reaction.notice);
      toast(reaction.toast);
      if (reaction.then === 'stop') setStopped(true);
    },
    [onFallback],
  );

  /** Whether voice mode can be used; says why not (and asks for keyboard mode) when it cannot. */
  const ensureSupported = useCallback(() => {
    if (getSpeechRecognition()) return true;
    report('unsupported');
    return false;
  }, [report]);

  const start = useEffectEvent(() => {
    if (voiceMode && !ensureSupported()) return;
    setStarted(true);
  });
  // Once per opening (the dialog mounts this on open); later mode switches go through `resume`.
  useEffect(() => {
    const timer = window.setTimeout(start, CAPTURE_START_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  const speech = useSpeechRecognition({ enabled: listening, onFinal: onTranscript, onProblem: report });
  const recorder = useAudioRecorder({ enabled: listening, onProblem: report });

  /** Starts listening again (after a stop, or when switching back to voice); false when unsupported. */
  const resume = useCallback(() => {
    if (!ensureSupported()) return false;
    setStopped(false);
    setStarted(true);
    return true;
  }, [ensureSupported]);

  return {
    listening,
    /** Recording was stopped by a network error. */
    stopped: voiceMode && stopped,
    resume,
    interim: speech.interim,
    discardInterim: speech.discardInterim,
    stream: recorder.stream,
    collectAudio: recorder.collectAudio,
  };
}
