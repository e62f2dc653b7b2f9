import { useEffect, useEffectEvent, useRef, useState } from 'react';

import { exportDownloadHref } from '@/features/portability/api/download-export';
import { useExportStatus } from '@/features/portability/api/get-export-status';
import { useStartExport } from '@/features/portability/api/start-export';
import { isUnderway } from '@/features/portability/lib/transfer-polling';
import { getErrorMessage } from '@/lib/api';

const EXPORT_FAILED = 'The export could not be made. Please try again.';

interface UseExportOptions {
  onReady?: () => void;
  onFailed?: (error: string) => void;
}

/**
 * The server builds the export zip (with progress), then the browser downloads it once. `progress`
 * is null when no export is being made. Leaving the page stops following it.
 */
export function useExport({ onReady, onFailed }: UseExportOptions = {}) {
  const [id, setId] = useState<string | null>(null);
  const starting = useStartExport({
    mutationConfig: {
      onSuccess: (started) => setId(started.id),
      onError: (error) => onFailed?.(getErrorMessage(error)),
    },
  });
  const status = useExportStatus(id);
  const settled =
    id !== null && (status.isError || (status.data !== undefined && !isUnderway(status.data.status)));

  // Each export ends once: the download starts or the failure is told.
  const handled = useRef<string | null>(null);
  const finish = useEffectEvent((finished: string) => {
    handled.current = finished;
    if (status.isError) onFailed?.(getErrorMessage(status.error));
    else if (status.data?.status !== 'ready') onFailed?.(EXPORT_FAILED);
    else {
      window.location.assign(exportDownloadHref(finished));
      onReady?.();
    }
  });
  useEffect(() => {
    if (settled && id !== handled.current) finish(id);
  }, [settled, id]);

  const progress = starting.isPending ? 0 : id !== null && !settled ? (status.data?.progress ?? 0) : null;
  return { progress, start: () => starting.mutate() };
}
