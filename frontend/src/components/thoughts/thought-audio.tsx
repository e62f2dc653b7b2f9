import { thoughtsContract } from '@haven/contracts/thoughts';
import { fillPath } from '@haven/contracts/client';

/**
 * The recording of a voice thought, streamed from its authenticated route (byte ranges, so it plays
 * and seeks without loading whole); nothing is fetched until the user presses play.
 */
export function ThoughtAudio({ thoughtId, label }: { thoughtId: number; label: string }) {
  return (
    // No captions track: the thought's own text, shown above, is its transcript.
    <audio
      controls
      preload="none"
      aria-label={label}
      src={fillPath(thoughtsContract.audio.path, { id: thoughtId })}
      className="pointer-events-auto relative z-10 h-11 w-full max-w-full rounded-full"
    />
  );
}
