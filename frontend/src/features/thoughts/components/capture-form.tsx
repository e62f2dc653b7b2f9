import { useCallback, useState, type FormEvent } from 'react';

import type { CaptureCategory } from '@haven/contracts/common';
import { DialogClose, DialogFooter } from '@/components/ui/dialog';
import { CategoryPicker } from '@/features/thoughts/components/category-picker';
import { KeyboardPanel } from '@/features/thoughts/components/keyboard-panel';
import { ModeSwitch, type CaptureMode } from '@/features/thoughts/components/mode-switch';
import { SubmitButton } from '@/features/thoughts/components/submit-button';
import { VoicePanel } from '@/features/thoughts/components/voice-panel';
import { useContentType } from '@/features/thoughts/hooks/use-content-type';
import { useSubmitCapture, type StartChat } from '@/features/thoughts/hooks/use-submit-capture';
import { useVoiceCapture } from '@/features/thoughts/hooks/use-voice-capture';
import { joinText } from '@/lib/join-text';

/**
 * The body of the capture dialog. It is mounted on every opening, so all fields start fresh and
 * unmounting on close releases the microphone, recognizer and timers.
 */
export function CaptureForm({ onDone, startChat }: { onDone: () => void; startChat: StartChat }) {
  const [mode, setMode] = useState<CaptureMode>('voice');
  const [text, setText] = useState('');
  const [category, setCategory] = useState<CaptureCategory>('personal');

  const toKeyboard = useCallback(() => setMode('keyboard'), []);
  const appendTranscript = useCallback((spoken: string) => setText((before) => joinText(before, spoken)), []);
  const voice = useVoiceCapture({
    voiceMode: mode === 'voice',
    onTranscript: appendTranscript,
    onFallback: toKeyboard,
  });
  // In voice mode the phrase still being recognised is shown, classified and saved with the rest.
  const fullText = mode === 'voice' ? joinText(text, voice.interim) : text;
  const { type, analyzing } = useContentType(fullText);
  const { submit, saving } = useSubmitCapture({ onSaved: onDone, startChat });

  function changeMode(next: CaptureMode) {
    if (next === mode) return;
    if (next === 'voice' && !voice.resume()) return;
    if (next === 'keyboard') {
      // Keep the unfinished phrase as typed text rather than losing it.
      voice.discardInterim();
      setText(fullText);
    }
    setMode(next);
  }

  function editText(value: string) {
    voice.discardInterim();
    setText(value);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({
      text: fullText,
      category,
      isVoice: mode === 'voice',
      collectAudio: voice.collectAudio,
      type,
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <ModeSwitch mode={mode} onModeChange={changeMode} />
      {mode === 'voice' ? (
        <VoicePanel
          stream={voice.stream}
          stopped={voice.stopped}
          onResume={voice.resume}
          value={fullText}
          onChange={editText}
        />
      ) : (
        <KeyboardPanel value={text} onChange={editText} />
      )}
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium">Category</span>
        <CategoryPicker value={category} onChange={setCategory} />
      </div>
      <DialogFooter className="pt-1">
        <DialogClose>Cancel</DialogClose>
        <SubmitButton type={type} analyzing={analyzing} saving={saving} />
      </DialogFooter>
    </form>
  );
}
