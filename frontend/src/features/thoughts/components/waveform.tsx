import { useAudioLevels } from '@/features/thoughts/hooks/use-audio-levels';
import { WAVEFORM_BARS } from '@/features/thoughts/lib/capture-constants';
import { cn } from '@/lib/utils';

/** 40 bars showing the microphone's loudness over the last two seconds; flat while not listening. */
export function Waveform({ stream, className }: { stream: MediaStream | null; className?: string }) {
  const levels = useAudioLevels(stream, WAVEFORM_BARS);
  return (
    <div
      data-testid="waveform"
      aria-hidden="true"
      className={cn('flex h-16 items-center justify-center gap-[3px]', className)}
    >
      {levels.map((level, index) => (
        <span
          // The bars are positions in time, not items: the index is their identity.
          key={index}
          data-level={level.toFixed(2)}
          className={cn(
            'w-1 rounded-full transition-[height] duration-75',
            stream ? 'bg-accent' : 'bg-muted-foreground/30',
          )}
          style={{ height: `${Math.max(6, Math.round(level * 100))}%` }}
        />
      ))}
    </div>
  );
}
