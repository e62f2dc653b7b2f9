import { Mic, Square } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import {
  SOUND_LEVEL,
  TEST_RECORDING_MS,
  useTestRecording,
  type TestRecording,
} from '@/features/debug/hooks/use-test-recording';
import { useNow } from '@/features/debug/hooks/use-now';
import { Waveform } from '@/features/thoughts/components/waveform';
import { voiceProblemText, type VoiceProblem } from '@/features/thoughts/lib/voice-problems';

/** What to try next after each problem the recorder reports, in place of the capture dialog's toasts. */
const PROBLEM_HINTS: Partial<Record<VoiceProblem, string>> = {
  denied:
    'The browser refused the microphone. Allow it in the site settings (the icon left of the address), then try again.',
  'no-microphone': 'No microphone was found. Plug one in or check that another app is not holding it.',
  silent: 'The microphone opened but delivered no audio. Check that it is not muted, then try again.',
  unavailable: 'The microphone stopped delivering audio. Check its connection, then try again.',
  'recorder-error': 'The browser could not record this audio. Another browser may work.',
};

const SECONDS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const KILOBYTES = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Seconds left of the test; mounted when the microphone opens. */
function Countdown() {
  const [startedAt] = useState(() => Date.now());
  const now = useNow(250).getTime();
  const left = Math.max(0, Math.ceil((TEST_RECORDING_MS - (now - startedAt)) / 1000));
  return <p className="text-sm text-muted-foreground tabular-nums">Recording… {left} s left</p>;
}

function RecordingResult({ result }: { result: TestRecording }) {
  const heard = result.peak >= SOUND_LEVEL;
  return (
    <div className="flex flex-col gap-2" role="status">
      <p className="text-sm">
        Recorded {SECONDS.format(result.durationMs / 1000)} s, {KILOBYTES.format(result.bytes / 1024)} KB as{' '}
        <code className="font-mono text-xs">{result.type || 'unknown type'}</code>.
      </p>
      <p className={heard ? 'text-sm' : 'text-sm font-medium text-amber-700 dark:text-amber-300'}>
        {heard
          ? 'Sound reached the microphone. Play it back to hear how it sounds.'
          : 'Hardly any sound reached the microphone. Check that it is not muted and speak closer to it.'}
      </p>
      {/* A spoken test of a few seconds has no captions to offer. */}
      <audio controls src={result.url} aria-label="Test recording" className="w-full" />
    </div>
  );
}

/** Records a few seconds with voice capture's own recorder, shows the level live, then plays it back. */
export function TestRecordingCard() {
  const test = useTestRecording();
  const levelPercent = Math.round(test.level * 100);

  return (
    <Card>
      <CardHeader>
        <h2 className="leading-tight font-semibold tracking-tight">Test recording</h2>
        <CardDescription>
          Records {TEST_RECORDING_MS / 1000} seconds the way voice capture does, then plays it back. Say a few
          words while the bars move.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {test.recording ? (
          <>
            <Waveform stream={test.stream} className="rounded-lg bg-muted/50" />
            <div
              role="meter"
              aria-label="Microphone level"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={levelPercent}
              className="h-2 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full rounded-full bg-accent" style={{ width: `${levelPercent}%` }} />
            </div>
            {test.stream ? (
              <Countdown key={test.stream.id} />
            ) : (
              <p className="text-sm text-muted-foreground">Opening the microphone…</p>
            )}
            <Button variant="outline" disabled={!test.stream} onClick={() => void test.stop()}>
              <Square aria-hidden="true" />
              Stop
            </Button>
          </>
        ) : (
          <Button onClick={test.start}>
            <Mic aria-hidden="true" />
            {test.result ? 'Record again' : 'Start test recording'}
          </Button>
        )}
        {test.problem && (
          <div role="alert" className="rounded-lg border border-destructive/40 bg-destructive/10 p-3 text-sm">
            <p className="font-medium text-destructive dark:text-red-400">
              {voiceProblemText(test.problem).title}
            </p>
            <p className="mt-1">
              {PROBLEM_HINTS[test.problem] ?? voiceProblemText(test.problem).description}
            </p>
          </div>
        )}
        {test.result && <RecordingResult result={test.result} />}
      </CardContent>
    </Card>
  );
}
