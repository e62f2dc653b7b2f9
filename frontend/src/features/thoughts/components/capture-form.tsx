import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';

import type { CaptureCategory } from '@haven/contracts/common';
import { MAX_CONTENT_LENGTH, type Thought } from '@haven/contracts/thoughts';
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { CaptureDate } from '@/features/thoughts/components/capture-date';
import { CaptureNotice } from '@/features/thoughts/components/capture-notice';
import { CategoryPicker } from '@/features/thoughts/components/category-picker';
import { CharacterCount, COUNT_FROM } from '@/features/thoughts/components/character-count';
import { ChatHint } from '@/features/thoughts/components/chat-hint';
import { KeyboardPanel } from '@/features/thoughts/components/keyboard-panel';
import { ModeSwitch, type CaptureMode } from '@/features/thoughts/components/mode-switch';
import { SubmitButton } from '@/features/thoughts/components/submit-button';
import { VoicePanel } from '@/features/thoughts/components/voice-panel';
import { useContentType } from '@/features/thoughts/hooks/use-content-type';
import type { DiscardGuard } from '@/features/thoughts/hooks/use-discard-guard';
import {
  useSubmitCapture,
  type DiscardChat,
  type StartChat,
} from '@/features/thoughts/hooks/use-submit-capture';
import { useVoiceCapture } from '@/features/thoughts/hooks/use-voice-capture';
import { rememberedMode, rememberMode } from '@/features/thoughts/lib/capture-mode';
import { entryInstant, initialEntryDate, type EntryDate } from '@/features/thoughts/lib/entry-date';
import { submitOnModEnter } from '@/features/thoughts/lib/submit-on-mod-enter';
import { VOICE_PROBLEMS, type VoiceNotice } from '@/features/thoughts/lib/voice-problems';
import { useDraft } from '@/hooks/use-draft';
import { joinText } from '@/lib/join-text';
import { useSignedInUserId } from '@/lib/signed-in-user';
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
 * The body of the capture dialog. It is mounted on every opening, so all fields start fresh (but
 * for a kept draft, put back) and unmounting on close releases the microphone, recognizer and timers.
 */
export function CaptureForm({
  onDone,
  startChat,
  discardChat,
  guardRef,
  day,
}: {
  /** The form is done: with the thought it saved, if it saved one. */
  onDone: (saved?: Thought) => void;
  startChat: StartChat;
  discardChat: DiscardChat;
  /** Filled in so the dialog can ask before unsaved writing is closed away. */
  guardRef: { current: DiscardGuard | null };
  /** The day the screen shows (`yyyy-MM-dd`): the entry is dated that day, at the current time. */
  day?: string;
}) {
  const userId = useSignedInUserId();
  const [opening] = useState(() => openingMode(userId));
  const [mode, setMode] = useState<CaptureMode>(opening.mode);
  const [notice, setNotice] = useState<VoiceNotice | null>(opening.notice);
  const [text, setText] = useState('');
  const [category, setCategory] = useState<CaptureCategory>('personal');
  const [when, setWhen] = useState<EntryDate | null>(() => initialEntryDate(day));
  // The user's own choice wins over the classifier for the rest of this capture.
  const [keptAsThought, setKeptAsThought] = useState(false);
  const countId = useId();

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
  const unsaved = fullText.trim() !== '';
  const draft = useDraft({
    slot: 'capture',
    text: fullText,
    unsaved,
    onRestore: useCallback((kept: string) => setText((now) => (now.trim() === '' ? kept : now)), []),
  });
  const { type: classified, analyzing } = useContentType(fullText);
  const type = keptAsThought ? 'thought' : classified;
  const { submit, saving } = useSubmitCapture({
    onSaved: (saved) => {
      void draft.forget();
      onDone(saved);
    },
    startChat,
    discardChat,
  });
  const tooLong = fullText.length > MAX_CONTENT_LENGTH;
  const counted = fullText.length >= COUNT_FROM;

  const latest = useRef({ unsaved, forget: draft.forget });
  useEffect(() => {
    latest.current = { unsaved, forget: draft.forget };
  });
  useEffect(() => {
    guardRef.current = {
      unsaved: () => latest.current.unsaved,
      discard: () => void latest.current.forget(),
    };
    return () => {
      guardRef.current = null;
    };
  }, [guardRef]);

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

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The count under the box says why; the server would refuse it anyway.
    if (tooLong || saving) return;
    void submit({
      text: fullText,
      category,
      isVoice: mode === 'voice',
      collectAudio: voice.collectAudio,
      type,
      date: entryInstant(when),
    });
  }

  return (
    <form onSubmit={onSubmit} onKeyDown={submitOnModEnter} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>New Thought</DialogTitle>
        {/* One line either way, so the sheet does not move when a draft comes back. */}
        <DialogDescription role="status">
          {draft.restored
            ? 'Draft restored: pick up where you left off.'
            : "Speak or type what's on your mind."}
        </DialogDescription>
      </DialogHeader>
      <ModeSwitch mode={mode} onModeChange={changeMode} />
      <CaptureDate value={when} onChange={setWhen} />
      {notice && mode === 'keyboard' && <CaptureNotice notice={notice} />}
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
