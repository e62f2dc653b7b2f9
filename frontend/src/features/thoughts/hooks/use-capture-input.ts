import { useCallback, useState } from 'react';

import type { CaptureMode } from '@/features/thoughts/components/mode-switch';
import { useVoiceCapture } from '@/features/thoughts/hooks/use-voice-capture';
import { rememberedMode, rememberMode } from '@/features/thoughts/lib/capture-mode';
import { VOICE_PROBLEMS, type VoiceNotice } from '@/features/thoughts/lib/voice-problems';
import { joinText } from '@/lib/join-text';
import { getSpeechRecognition } from '@/lib/speech-recognition';

/** The mode a capture opens in: the last one chosen, or the keyboard where speech cannot work. */
function openingMode(userId: number | null): { mode: CaptureMode; notice: VoiceNotice | null } {
  const mode = rememberedMode(userId);
  if (mode === 'voice' && !getSpeechRecognition()) {
    const reaction = VOICE_PROBLEMS.unsupported;
    return { mode: 'keyboard', notice: reaction.then === 'keyboard' ? reaction.notice : null };
  }
  return { mode, notice: null };
}

/**
 * The capture's text as spoken or typed: the mode (voice or keyboard, remembered for the user), the
 * notice shown when speech gave way to the keyboard, the recognised and typed text, and the voice
 * capture itself.
 */
export function useCaptureInput(userId: number | null) {
  const [opening] = useState(() => openingMode(userId));
  const [mode, setMode] = useState<CaptureMode>(opening.mode);
  const [notice, setNotice] = useState<VoiceNotice | null>(opening.notice);
  const [text, setText] = useState('');

  const toKeyboard = useCallback((why: VoiceNotice) => {
    setNotice(why);
    setMode('keyboard');
  }, []);
  const appendTranscript = useCallback((spoken: string) => setText((before) => joinText(before, spoken)), []);
  const voice = useVoiceCapture({
    voiceMode: mode === 'voice',
    onTranscript: appendTranscript,
    onFallback: toKeyboard,
  });
  // In voice mode the phrase still being recognised is shown, classified and saved with the rest.
  const fullText = mode === 'voice' ? joinText(text, voice.interim) : text;

  function changeMode(next: CaptureMode) {
    if (next === mode) return;
    if (next === 'voice' && !voice.resume()) return;
    if (next === 'keyboard') {
      // Keep the unfinished phrase as typed text rather than losing it.
      voice.discardInterim();
      setText(fullText);
    }
    setNotice(null);
    setMode(next);
    rememberMode(userId, next);
  }

  function editText(value: string) {
    voice.discardInterim();
    setText(value);
  }

  return { mode, notice, text, setText, fullText, voice, changeMode, editText };
}
