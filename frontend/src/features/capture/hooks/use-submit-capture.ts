import { useState } from 'react';

import type { CaptureCategory } from '@haven/contracts/common';
import { useCreateThought } from '@/features/capture/api/create-thought';
import { blobToDataUrl } from '@/features/capture/lib/blob-to-data-url';
import { MAX_AUDIO_BYTES } from '@/features/capture/lib/capture-constants';
import { toast } from '@/hooks/use-toast';

export interface CaptureSubmission {
  text: string;
  category: CaptureCategory;
  /** Captured in voice mode: the recording goes along when there is one. */
  isVoice: boolean;
  collectAudio: () => Promise<Blob | null>;
}

function toastEmptyContent(): void {
  toast({
    title: 'Empty content',
    description: 'Please say or enter some text before submitting',
    variant: 'destructive',
  });
}

/** The recording as a data URL; undefined when it is over the 10 MB limit or unreadable. */
async function toAudioData(blob: Blob): Promise<string | undefined> {
  if (blob.size > MAX_AUDIO_BYTES) return undefined;
  return blobToDataUrl(blob).catch(() => undefined);
}

/**
 * Saves the captured entry as a thought. Empty text is refused unless a recording goes along (the
 * server then transcribes it); a voice entry without a recording is still saved, with a warning.
 */
export function useSubmitCapture({ onSaved }: { onSaved: () => void }) {
  const createThought = useCreateThought();
  const [preparing, setPreparing] = useState(false);

  async function submit({ text, category, isVoice, collectAudio }: CaptureSubmission) {
    const content = text.trim();
    if (!content && !isVoice) return toastEmptyContent();
    setPreparing(true);
    try {
      const recording = isVoice ? await collectAudio() : null;
      const audioData = recording ? await toAudioData(recording) : undefined;
      if (!content && !audioData) return toastEmptyContent();
      if (isVoice && !recording)
        toast({ title: 'Audio recording issue', description: 'No audio was captured' });
      const now = new Date();
      createThought.mutate(
        {
          content,
          category,
          isVoice,
          audioData,
          clientDate: now.toISOString(),
          timezoneOffset: now.getTimezoneOffset(),
        },
        { onSuccess: onSaved },
      );
    } finally {
      setPreparing(false);
    }
  }

  return { submit, saving: preparing || createThought.isPending };
}
