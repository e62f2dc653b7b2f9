import type { ToastInput } from '@/hooks/use-toast';
import type { SpeechProblem } from '@/lib/speech-recognition';

/** Everything that can go wrong with the microphone or speech recognition while capturing. */
export type VoiceProblem = SpeechProblem | 'no-microphone' | 'silent' | 'unavailable' | 'recorder-error';

interface VoiceProblemReaction {
  toast: ToastInput;
  /** `keyboard` switches the dialog to typing; `stop` ends recording but stays in voice mode. */
  then: 'keyboard' | 'stop' | 'continue';
}

/** What the user is told about each problem, and what the dialog does next (spec section 8). */
export const VOICE_PROBLEMS: Record<VoiceProblem, VoiceProblemReaction> = {
  unsupported: {
    toast: {
      title: 'Speech recognition not available',
      description:
        'Your browser does not support speech recognition. Please use Chrome or Edge, or type instead.',
      variant: 'destructive',
    },
    then: 'keyboard',
  },
  network: {
    toast: { title: 'Network error', description: 'Check your internet connection.', variant: 'destructive' },
    then: 'stop',
  },
  'microphone-error': {
    toast: {
      title: 'Microphone error',
      description: 'The microphone stopped working. Switching to text input.',
      variant: 'destructive',
    },
    then: 'keyboard',
  },
  denied: {
    toast: {
      title: 'Microphone access denied',
      description: 'Allow microphone access in your browser to record, or type your thought.',
      variant: 'destructive',
    },
    then: 'keyboard',
  },
  'no-microphone': {
    toast: {
      title: 'Microphone issue',
      description: 'No working microphone was found. Switching to text input.',
      variant: 'destructive',
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
    toast: {
      title: 'Microphone Unavailable',
      description: 'The microphone is not delivering audio. Switching to text input.',
      variant: 'destructive',
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
