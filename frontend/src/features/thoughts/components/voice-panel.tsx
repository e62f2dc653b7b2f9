import { MAX_CONTENT_LENGTH } from '@haven/contracts/thoughts';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { Waveform } from '@/features/thoughts/components/waveform';

interface VoicePanelProps {
  /** The open microphone, or null while it is starting or off. */
  stream: MediaStream | null;
  /** Recording was stopped (network error) and waits for the user to resume. */
  stopped: boolean;
  onResume: () => void;
  /** The transcript so far, including the phrase still being recognised. */
  value: string;
  onChange: (value: string) => void;
  /** The id of the character count, once it shows. */
  describedBy?: string;
  /** Over the length limit (speech can run past it; typing cannot). */
  invalid?: boolean;
}

function VoiceStatus({
  stream,
  stopped,
  onResume,
}: Pick<VoicePanelProps, 'stream' | 'stopped' | 'onResume'>) {
  if (stopped) {
    return (
      <>
        Recording stopped.
        <Button variant="link" size="sm" className="h-auto px-0" onClick={onResume}>
          Resume recording
        </Button>
      </>
    );
  }
  if (!stream) return <>Starting microphone...</>;
  return (
    <>
      <span className="size-2 animate-pulse rounded-full bg-red-500" aria-hidden="true" />
      Listening...
    </>
  );
}

/** Voice mode: the live microphone waveform, a status line and the editable transcript. */
export function VoicePanel({ value, onChange, describedBy, invalid, ...status }: VoicePanelProps) {
  return (
    <div className="flex flex-col gap-3">
      <div className="rounded-xl bg-muted/60 px-3 pt-3 pb-2">
        <Waveform stream={status.stream} />
        <p
          role="status"
          className="mt-1 flex h-6 items-center justify-center gap-2 text-xs text-muted-foreground"
        >
          <VoiceStatus {...status} />
        </p>
      </div>
      <Textarea
        aria-label="Live transcript"
        placeholder="Start speaking... your words appear here and can be edited."
        rows={4}
        maxLength={Math.max(MAX_CONTENT_LENGTH, value.length)}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
