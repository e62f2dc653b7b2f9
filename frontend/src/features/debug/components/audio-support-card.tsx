import { useState } from 'react';

import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { CheckRow, type CheckTone } from '@/features/debug/components/check-row';
import {
  useMicrophonePermission,
  type MicrophonePermission,
} from '@/features/debug/hooks/use-microphone-permission';
import { readAudioSupport } from '@/features/debug/lib/audio-support';

const PERMISSION: Record<MicrophonePermission, [CheckTone, string]> = {
  granted: ['ok', 'Allowed'],
  prompt: ['warn', 'Not asked yet'],
  denied: ['bad', 'Blocked'],
  unknown: ['warn', 'Cannot tell'],
};

const yesNo = (ok: boolean, yes: string, no: string): [CheckTone, string] => (ok ? ['ok', yes] : ['bad', no]);

/** What this browser offers for voice capture: the APIs, the permission and the recording formats. */
export function AudioSupportCard() {
  const [support] = useState(readAudioSupport);
  const permission = useMicrophonePermission();
  const rows: Array<[string, [CheckTone, string]]> = [
    ['Secure connection', yesNo(support.secureContext, 'Yes', 'No')],
    ['Microphone access', yesNo(support.getUserMedia, 'Available', 'Missing')],
    ['Microphone permission', permission === null ? ['pending', 'Checking…'] : PERMISSION[permission]],
    ['Audio recording (MediaRecorder)', yesNo(support.mediaRecorder, 'Supported', 'Not supported')],
    ['Speech recognition', support.speechRecognition ? ['ok', 'Available'] : ['warn', 'Not available']],
  ];

  return (
    <Card>
      <CardHeader>
        <h2 className="leading-tight font-semibold tracking-tight">This browser</h2>
        <CardDescription>
          Voice capture needs the microphone and audio recording; speech recognition turns what you say into
          text, and without it you type instead.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl aria-label="Browser support" className="divide-y">
          {rows.map(([label, [tone, value]]) => (
            <CheckRow key={label} label={label} tone={tone}>
              {value}
            </CheckRow>
          ))}
        </dl>
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">Recording formats</h3>
          <dl aria-label="Recording formats" className="divide-y">
            {support.types.map(({ type, supported }) => (
              <CheckRow
                key={type}
                label={<code className="font-mono text-xs break-all">{type}</code>}
                tone={supported ? 'ok' : 'bad'}
              >
                {supported ? 'Supported' : 'Not supported'}
              </CheckRow>
            ))}
          </dl>
        </div>
      </CardContent>
    </Card>
  );
}
