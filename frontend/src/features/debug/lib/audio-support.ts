import { getSpeechRecognition } from '@/lib/speech-recognition';

/** Containers and codecs worth knowing about: what the capture dialog prefers, then the usual others. */
export const CANDIDATE_AUDIO_TYPES = [
  'audio/webm;codecs=opus',
  'audio/webm',
  'audio/mp4',
  'audio/ogg;codecs=opus',
  'audio/wav',
] as const;

/** What this browser offers for voice capture, read once when the diagnostic opens. */
export interface AudioSupport {
  /** getUserMedia needs https (or localhost). */
  secureContext: boolean;
  getUserMedia: boolean;
  mediaRecorder: boolean;
  /** Each candidate type and whether MediaRecorder can record it. */
  types: Array<{ type: string; supported: boolean }>;
  /** The recognizer's constructor name, or null when the browser has none. */
  speechRecognition: 'SpeechRecognition' | 'webkitSpeechRecognition' | null;
}

export function readAudioSupport(): AudioSupport {
  const mediaRecorder = typeof MediaRecorder !== 'undefined';
  return {
    secureContext: window.isSecureContext,
    getUserMedia: typeof navigator.mediaDevices?.getUserMedia === 'function',
    mediaRecorder,
    types: CANDIDATE_AUDIO_TYPES.map((type) => ({
      type,
      supported: mediaRecorder && MediaRecorder.isTypeSupported(type),
    })),
    speechRecognition: !getSpeechRecognition()
      ? null
      : (window as { SpeechRecognition?: unknown }).SpeechRecognition
        ? 'SpeechRecognition'
        : 'webkitSpeechRecognition',
  };
}
