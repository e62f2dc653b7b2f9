import { useCallback, useEffect, useRef, useState } from 'react';

import { exportDownloadHref } from '@/features/portability/api/download-export';
import { getExportStatus } from '@/features/portability/api/get-export-status';
import { startExport } from '@/features/portability/api/start-export';
import { pollUntil } from '@/features/portability/lib/poll-until';
import { getErrorMessage } from '@/lib/api';

interface UseExportOptions {
  onReady?: () => void;
  onFailed?: (error: string) => void;
}

/**
 * The server builds the export zip (with progress), then the browser downloads it once. `progress`
 * is null when no export is being made. Leaving the page stops following it.
 */
export function useExport({ onReady, onFailed }: UseExportOptions = {}) {
  const [progress, setProgress] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async () => {
    controller.current?.abort();
    const { signal } = (controller.current = new AbortController());
    setProgress(0);
    try {
      const { id } = await startExport();
      const last = await pollUntil(
        () => getExportStatus(id),
        (s) => s.status !== 'queued' && s.status !== 'running',
        (s) => setProgress(s.progress),
        { signal },
      );
      if (last.status !== 'ready') throw new Error('The export could not be made. Please try again.');
      window.location.assign(exportDownloadHref(id));
      onReady?.();
    } catch (caught) {
      if (!signal.aborted) onFailed?.(getErrorMessage(caught));
    } finally {
      if (!signal.aborted) setProgress(null);
    }
  }, [onReady, onFailed]);

  return { progress, start };
}
