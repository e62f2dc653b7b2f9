/** Speech recognition is restarted after this long without a result (spec section 9). */
export const SILENCE_RESTART_MS = 8_000;
/** Pause before restarting recognition after it ends, so a failing service cannot spin. */
export const RECOGNITION_RESTART_DELAY_MS = 250;
export const SPEECH_LANG = 'en-US';

/** What can end listening: no recognizer, a network failure, a microphone error or a refusal. */
export type SpeechProblem = 'unsupported' | 'network' | 'microphone-error' | 'denied';

/**
 * The slice of the Web Speech API the capture and voice dialogs use. TypeScript's DOM library leaves the
 * recognizer out (Chromium only ships it prefixed), so it is described here instead of globally.
 */
export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onstart: (() => void) | null;
  onresult: ((event: SpeechRecognitionResultEventLike) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export interface SpeechRecognitionResultEventLike {
  /** The first result that changed in this event. */
  resultIndex: number;
  results: SpeechRecognitionResultList;
}

type SpeechRecognitionConstructor = new () => SpeechRecognitionLike;

type SpeechWindow = Window & {
  SpeechRecognition?: SpeechRecognitionConstructor;
  webkitSpeechRecognition?: SpeechRecognitionConstructor;
};

/** The browser's recognizer constructor, standard or prefixed, if it has one. */
export function getSpeechRecognition(): SpeechRecognitionConstructor | undefined {
  const w = window as SpeechWindow;
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}
