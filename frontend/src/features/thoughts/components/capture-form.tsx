import { useCallback, useId, useState, type FormEvent } from 'react';

import type { CaptureCategory } from '@haven/contracts/common';
import { MAX_CONTENT_LENGTH, type Thought } from '@haven/contracts/thoughts';
import { DialogClose, DialogFooter } from '@/components/ui/dialog';
import { CategoryPicker } from '@/features/thoughts/components/category-picker';
import { CharacterCount, COUNT_FROM } from '@/features/thoughts/components/character-count';
import { ChatHint } from '@/features/thoughts/components/chat-hint';
import { KeyboardPanel } from '@/features/thoughts/components/keyboard-panel';
import { ModeSwitch, type CaptureMode } from '@/features/thoughts/components/mode-switch';
import { SubmitButton } from '@/features/thoughts/components/submit-button';
import { VoicePanel } from '@/features/thoughts/components/voice-panel';
import { useContentType } from '@/features/thoughts/hooks/use-content-type';
import {
  useSubmitCapture,
  type DiscardChat,
  type StartChat,
} from '@/features/thoughts/hooks/use-submit-capture';
import { useVoiceCapture } from '@/features/thoughts/hooks/use-voice-capture';
import { joinText } from '@/lib/join-text';

/**
 * The body of the capture dialog. It is mounted on every opening, so all fields start fresh and
 * unmounting on close releases the microphone, recognizer and timers.
 */
export function CaptureForm({
  onDone,
  startChat,
  discardChat,
}: {
  /** The form is done: with the thought it saved, if it saved one. */
  onDone: (saved?: Thought) => void;
  startChat: StartChat;
  discardChat: DiscardChat;
}) {
  const [mode, setMode] = useState<CaptureMode>('voice');
  const [text, setText] = useState('');
  const [category, setCategory] = useState<CaptureCategory>('personal');
  // The user's own choice wins over the classifier for the rest of this capture.
  const [keptAsThought, setKeptAsThought] = useState(false);
  const countId = useId();

  const toKeyboard = useCallback(() => setMode('keyboard'), []);
  const appendTranscript = useCallback((spoken: string) => setText((before) => joinText(before, spoken)), []);
  const voice = useVoiceCapture({
    voiceMode: mode === 'voice',
    onTranscript: appendTranscript,
    onFallback: toKeyboard,
  });
  // In voice mode the phrase still being recognised is shown, classified and saved with the rest.
  const fullText = mode === 'voice' ? joinText(text, voice.interim) : text;
  const { type: classified, analyzing } = useContentType(fullText);
  const type = keptAsThought ? 'thought' : classified;
  const { submit, saving } = useSubmitCapture({ onSaved: onDone, startChat, discardChat });
  const tooLong = fullText.length > MAX_CONTENT_LENGTH;
  const counted = fullText.length >= COUNT_FROM;

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
    // The count under the box says why; the server would refuse it anyway.
    if (tooLong) return;
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
          describedBy={counted ? countId : undefined}
          invalid={tooLong}
        />
      ) : (
        <KeyboardPanel
          value={text}
          onChange={editText}
          describedBy={counted ? countId : undefined}
          invalid={tooLong}
        />
      )}
      <CharacterCount id={countId} length={fullText.length} max={MAX_CONTENT_LENGTH} />
      <ChatHint
        readAsChat={classified === 'chat' && fullText.trim() !== ''}
        keptAsThought={keptAsThought}
        onKeepAsThought={() => setKeptAsThought(true)}
        onSendAsChat={() => setKeptAsThought(false)}
      />
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium">Category</span>
        <CategoryPicker value={category} onChange={setCategory} />
      </div>
      <DialogFooter className="pt-1">
        <DialogClose>Cancel</DialogClose>
        <SubmitButton type={type} analyzing={analyzing} saving={saving} blocked={tooLong} />
      </DialogFooter>
    </form>
  );
}
