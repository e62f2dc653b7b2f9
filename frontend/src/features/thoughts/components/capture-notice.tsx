import { Keyboard } from 'lucide-react';

import type { VoiceNotice } from '@/features/thoughts/lib/voice-problems';

/** Why the sheet is in keyboard mode, said in the sheet (a toast would cover its buttons). */
export function CaptureNotice({ notice }: { notice: VoiceNotice }) {
  return (
    <div role="status" className="flex gap-2.5 rounded-lg border bg-muted/50 px-3 py-2 text-sm">
      <Keyboard aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <p>
        <span className="font-medium">{notice.title}.</span>{' '}
        <span className="text-muted-foreground">{notice.description}</span>
      </p>
    </div>
  );
}
