import { Keyboard, Mic } from 'lucide-react';

import { Toggle } from '@/components/ui/toggle';

export type CaptureMode = 'voice' | 'keyboard';

interface ModeSwitchProps {
  mode: CaptureMode;
  onModeChange: (mode: CaptureMode) => void;
}

/** Voice / Keyboard, a segmented pair of toggle buttons. */
export function ModeSwitch({ mode, onModeChange }: ModeSwitchProps) {
  return (
    <div role="group" aria-label="Input mode" className="grid grid-cols-2 gap-1 rounded-xl bg-muted p-1">
      <Toggle
        variant="segment"
        className="h-11"
        pressed={mode === 'voice'}
        onClick={() => onModeChange('voice')}
      >
        <Mic aria-hidden="true" />
        Voice
      </Toggle>
      <Toggle
        variant="segment"
        className="h-11"
        pressed={mode === 'keyboard'}
        onClick={() => onModeChange('keyboard')}
      >
        <Keyboard aria-hidden="true" />
        Keyboard
      </Toggle>
    </div>
  );
}
