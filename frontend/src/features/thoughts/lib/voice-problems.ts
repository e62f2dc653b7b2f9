import type { ReactNode } from 'react';

import type { ToastInput } from '@/hooks/use-toast';
import type { SpeechProblem } from '@/lib/speech-recognition';

/** Everything that can go wrong with the microphone or speech recognition while capturing. */
export type VoiceProblem = SpeechProblem | 'no-microphone' | 'silent' | 'unavailable' | 'recorder-error';

/** Why the sheet switched to typing, said inline above the text box (never a toast over Cancel). */
export interface VoiceNotice {
  title: string;
  description: string;
}

type VoiceProblemReaction =
  /** The sheet switches to typing and says why in the sheet itself. */
  | { then: 'keyboard'; notice: VoiceNotice }
  /** `stop` ends recording but stays in voice mode; `continue` only tells. */
  | { then: 'stop' | 'continue'; toast: ToastInput };

/** What the user is told about each problem, and what the dialog does next (spec section 8). */
export const VOICE_PROBLEMS: Record<VoiceProblem, VoiceProblemReaction> = {
  unsupported: {
    notice: {
      title: 'Speech recognition not available',
      description: "This browser can't take dictation, so you're typing. Chrome or Edge can.",
    },
    then: 'keyboard',
  },
  network: {
    toast: { title: 'Network error', description: 'Check your internet connection.', variant: 'destructive' },
    then: 'stop',
  },
  'microphone-error': {
    notice: {
      title: 'Microphone error',
      description: "The microphone stopped working, so you're typing. Your words so far are kept.",
    },
    then: 'keyboard',
  },
  denied: {
    notice: {
      title: 'Microphone access denied',
      description:
        "You're typing instead. To speak, allow the microphone for this site in your browser's settings.",
    },
    then: 'keyboard',
  },
  'no-microphone': {
    notice: {
      title: 'Microphone issue',
      description: "No working microphone was found, so you're typing.",
    },
    then: 'keyboard',
  },
  silent: {
    toast: {
      title: 'Microphone Issue Detected',
      description: 'No audio is coming through. Reconnecting the microphone...',
    },
    then: 'continue',
  },
  unavailable: {
    notice: {
      title: 'Microphone Unavailable',
      description: "The microphone is not delivering audio, so you're typing. Your words so far are kept.",
    },
    then: 'keyboard',
  },
  'recorder-error': {
    toast: {
      title: 'Recording error',
      description: 'The audio recording failed; your spoken text is still captured.',
      variant: 'destructive',
    },
    then: 'continue',
  },
};

/** What is said about a problem, whether in the sheet or in a toast. */
export function voiceProblemText(problem: VoiceProblem): { title?: ReactNode; description?: ReactNode } {
  const reaction = VOICE_PROBLEMS[problem];
  return reaction.then === 'keyboard' ? reaction.notice : reaction.toast;
}
