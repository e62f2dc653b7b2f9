import { useEffect, useState } from 'react';

/** The browser's microphone permission, or 'unknown' where the Permissions API cannot tell. */
export type MicrophonePermission = PermissionState | 'unknown';

/** Follows the microphone permission as it changes (a test recording's prompt, the site settings). */
export function useMicrophonePermission(): MicrophonePermission | null {
  const [state, setState] = useState<MicrophonePermission | null>(() =>
    'permissions' in navigator ? null : 'unknown',
  );

  useEffect(() => {
    let status: PermissionStatus | null = null;
    let disposed = false;
    const update = () => status && setState(status.state);
    if (!('permissions' in navigator)) return;
    navigator.permissions
      // 'microphone' is not in TypeScript's PermissionName yet, though Chromium and Firefox answer it.
      .query({ name: 'microphone' as PermissionName })
      .then((answer) => {
        if (disposed) return;
        status = answer;
        update();
        answer.addEventListener('change', update);
      })
      .catch(() => !disposed && setState('unknown'));
    return () => {
      disposed = true;
      status?.removeEventListener('change', update);
    };
  }, []);

  return state;
}
