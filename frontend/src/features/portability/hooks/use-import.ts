import type { ImportProgress } from '@haven/contracts/portability';
import { useCallback, useEffect, useRef, useState } from 'react';

import { getImportStatus } from '@/features/portability/api/get-import-status';
import { startImport } from '@/features/portability/api/start-import';
import { pollUntil } from '@/features/portability/lib/poll-until';
import { importFailure } from '@/features/portability/lib/import-summary';
import { getErrorMessage } from '@/lib/api';

/** An import as the card shows it. */
export type ImportRun =
  | { phase: 'idle' }
  /** The zip is on its way up. */
  | { phase: 'uploading' }
  | { phase: 'running'; id: string; progress: ImportProgress | null }
  /** `result` is the last answer (null when the upload or a status read failed); `error` when it failed. */
  | { phase: 'ended'; id: string | null; result: ImportProgress | null; error: string | null };

const ended = (p: ImportProgress) => p.status === 'done' || p.status === 'failed' || p.status === 'expired';

interface UseImportOptions {
  onDone?: (result: ImportProgress) => void;
  onFailed?: (error: string, result: ImportProgress | null) => void;
}

/**
 * Uploads a zip and follows the import until it is done or failed (or its status cannot be read,
 * like a 404), then keeps the outcome to show. Leaving the page stops following it.
 */
export function useImport({ onDone, onFailed }: UseImportOptions = {}) {
  const [run, setRun] = useState<ImportRun>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    async (file: File) => {
      controller.current?.abort();
      const { signal } = (controller.current = new AbortController());
      setRun({ phase: 'uploading' });
      let id: string | null = null;
      try {
        id = (await startImport(file)).id;
        const started = id;
        setRun({ phase: 'running', id, progress: null });
        const last = await pollUntil(
          () => getImportStatus(started),
          ended,
          (progress) => setRun({ phase: 'running', id: started, progress }),
          { signal },
        );
        if (last.status === 'done') {
          setRun({ phase: 'ended', id, result: last, error: null });
          onDone?.(last);
        } else {
          const error = importFailure(last);
          setRun({ phase: 'ended', id, result: last, error });
          onFailed?.(error, last);
        }
      } catch (caught) {
        if (signal.aborted) return;
        const error = getErrorMessage(caught);
        setRun({ phase: 'ended', id, result: null, error });
        onFailed?.(error, null);
      }
    },
    [onDone, onFailed],
  );

  return { run, start };
}
