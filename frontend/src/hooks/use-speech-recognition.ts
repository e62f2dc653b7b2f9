import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';

import {
  getSpeechRecognition,
  RECOGNITION_RESTART_DELAY_MS,
  SILENCE_RESTART_MS,
  SPEECH_LANG,
  type SpeechProblem,
} from '@/lib/speech-recognition';

/** Recognition errors that end listening, by the problem they report; 'no-speech' is ignored. */
const FATAL_ERRORS: Record<string, SpeechProblem> = {
  network: 'network',
  aborted: 'microphone-error',
  'audio-capture': 'microphone-error',
  'not-allowed': 'denied',
  'service-not-allowed': 'denied',
};

interface SpeechRecognitionOptions {
  /** Listens while true; turning it off releases the recognizer. */
  enabled: boolean;
  /** Called once per finished phrase. */
  onFinal: (transcript: string) => void;
  onProblem: (problem: SpeechProblem) => void;
}

/**
 * Continuous en-US speech recognition. It restarts itself when the service ends a session and after
 * 8 s without a result. Returns the phrase still being recognised (`interim`) and `discardInterim`,
 * which drops that phrase (used when the user edits the text by hand while speaking).
 */
export function useSpeechRecognition({ enabled, onFinal, onProblem }: SpeechRecognitionOptions) {
  const [interim, setInterim] = useState('');
  // Results below this index of the current session are ignored (they were discarded).
  const ignoreBelowRef = useRef(0);
  const resultCountRef = useRef(0);
  const emitFinal = useEffectEvent(onFinal);
  const emitProblem = useEffectEvent(onProblem);

  useEffect(() => {
    if (!enabled) return;
    const Recognition = getSpeechRecognition();
    if (!Recognition) {
      emitProblem('unsupported');
      return;
    }
    const recognition = new Recognition();
    recognition.lang = SPEECH_LANG;
    recognition.continuous = true;
    recognition.interimResults = true;
    let ended = false;
    let silenceTimer: number | undefined;
    let restartTimer: number | undefined;

    const start = () => {
      try {
        recognition.start();
      } catch {
        // Already running: nothing to do.
      }
    };
    // Stopping ends the session; onend then starts a fresh one.
    const armSilenceTimer = () => {
      window.clearTimeout(silenceTimer);
      silenceTimer = window.setTimeout(() => recognition.stop(), SILENCE_RESTART_MS);
    };

    recognition.onstart = () => {
      ignoreBelowRef.current = 0;
      resultCountRef.current = 0;
      setInterim('');
      armSilenceTimer();
    };
    recognition.onresult = (event) => {
      armSilenceTimer();
      let pending = '';
      for (let i = Math.max(event.resultIndex, ignoreBelowRef.current); i < event.results.length; i++) {
        const result = event.results[i];
        const transcript = result?.[0]?.transcript.trim() ?? '';
        if (result?.isFinal) {
          if (transcript) emitFinal(transcript);
        } else {
          pending = `${pending} ${transcript}`.trim();
        }
      }
      resultCountRef.current = event.results.length;
      setInterim(pending);
    };
    recognition.onerror = ({ error }) => {
      const problem = FATAL_ERRORS[error];
      if (!problem) return; // 'no-speech' and other transient errors: onend restarts.
      ended = true;
      emitProblem(problem);
    };
    recognition.onend = () => {
      window.clearTimeout(silenceTimer);
      setInterim('');
      if (!ended) restartTimer = window.setTimeout(start, RECOGNITION_RESTART_DELAY_MS);
    };
    start();

    return () => {
      ended = true;
      window.clearTimeout(silenceTimer);
      window.clearTimeout(restartTimer);
      // Detach first: abort() would otherwise report an 'aborted' error for our own shutdown.
      recognition.onstart = recognition.onresult = recognition.onerror = recognition.onend = null;
      recognition.abort();
    };
  }, [enabled]);

  const discardInterim = useCallback(() => {
    ignoreBelowRef.current = resultCountRef.current;
    setInterim('');
  }, []);

  return { interim: enabled ? interim : '', discardInterim };
}
