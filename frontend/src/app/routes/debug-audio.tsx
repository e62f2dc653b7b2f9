import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';
import { AudioSupportCard } from '@/features/debug/components/audio-support-card';
import { TestRecordingCard } from '@/features/debug/components/test-recording-card';

/** Settings → Troubleshooting: why voice capture may not work in this browser, and a test recording. */
export function DebugAudioRoute() {
  return (
    <SimplePage
      backTo={paths.settings.getHref()}
      title="Audio Recording Diagnostic"
      description="Checks what this browser offers for voice capture and records a short test."
    >
      <TestRecordingCard />
      <AudioSupportCard />
    </SimplePage>
  );
}
