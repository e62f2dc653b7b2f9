import { useCallback, useId, useState, type FormEvent } from 'react';

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
import { ModeSwitch } from '@/features/thoughts/components/mode-switch';
import { SubmitButton } from '@/features/thoughts/components/submit-button';
import { VoicePanel } from '@/features/thoughts/components/voice-panel';
import { useContentType } from '@/features/thoughts/hooks/use-content-type';
import { useRegisterDiscardGuard, type DiscardGuard } from '@/features/thoughts/hooks/use-discard-guard';
import { useCaptureInput } from '@/features/thoughts/hooks/use-capture-input';
import {
  useSubmitCapture,
  type DiscardChat,
  type StartChat,
} from '@/features/thoughts/hooks/use-submit-capture';
import { entryInstant, initialEntryDate, type EntryDate } from '@/features/thoughts/lib/entry-date';
import { submitOnModEnter } from '@/features/thoughts/lib/submit-on-mod-enter';
import { useDraft } from '@/hooks/use-draft';
import { useSignedInUserId } from '@/lib/signed-in-user';

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
  const { mode, notice, text, setText, fullText, voice, changeMode, editText } = useCaptureInput(userId);
  const [category, setCategory] = useState<CaptureCategory>('personal');
  const [when, setWhen] = useState<EntryDate | null>(() => initialEntryDate(day));
  // The user's own choice wins over the classifier for the rest of this capture.
  const [keptAsThought, setKeptAsThought] = useState(false);
  const countId = useId();

  const unsaved = fullText.trim() !== '';
  const draft = useDraft({
    slot: 'capture',
    text: fullText,
    unsaved,
    onRestore: useCallback((kept: string) => setText((now) => (now.trim() === '' ? kept : now)), [setText]),
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
  useRegisterDiscardGuard(guardRef, { unsaved: () => unsaved, discard: () => void draft.forget() });

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
