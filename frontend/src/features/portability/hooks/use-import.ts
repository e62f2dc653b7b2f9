import type { ImportProgress } from '@haven/contracts/portability';
import { useEffect, useEffectEvent, useRef, useState } from 'react';

import { useImportStatus } from '@/features/portability/api/get-import-status';
import { useStartImport } from '@/features/portability/api/start-import';
import { importFailure } from '@/features/portability/lib/import-summary';
import { isUnderway } from '@/features/portability/lib/transfer-polling';
import { getErrorMessage } from '@/lib/api';

/** An import as the card shows it. */
export type ImportRun =
  | { phase: 'idle' }
  /** The zip is on its way up. */
  | { phase: 'uploading' }
  | { phase: 'running'; id: string; progress: ImportProgress | null }
  /** `result` is the last answer (null when the upload or a status read failed); `error` when it failed. */
  | { phase: 'ended'; id: string | null; result: ImportProgress | null; error: string | null };

interface UseImportOptions {
  onDone?: (result: ImportProgress) => void;
  onFailed?: (error: string, result: ImportProgress | null) => void;
}

/**
 * Uploads a zip and follows the import until it is done or failed (or its status cannot be read,
 * like a 404), then keeps the outcome to show. Leaving the page stops following it.
 */
export function useImport({ onDone, onFailed }: UseImportOptions = {}) {
  const [id, setId] = useState<string | null>(null);
  const upload = useStartImport({
    mutationConfig: {
      onSuccess: (started) => setId(started.id),
      onError: (error) => onFailed?.(getErrorMessage(error), null),
    },
  });
  const status = useImportStatus(id);

  let run: ImportRun;
  if (upload.isPending) run = { phase: 'uploading' };
  else if (upload.isError)
    run = { phase: 'ended', id: null, result: null, error: getErrorMessage(upload.error) };
  else if (id === null) run = { phase: 'idle' };
  else if (status.isError) run = { phase: 'ended', id, result: null, error: getErrorMessage(status.error) };
  else if (status.data && !isUnderway(status.data.status)) {
    const result = status.data;
    run = { phase: 'ended', id, result, error: result.status === 'done' ? null : importFailure(result) };
  } else run = { phase: 'running', id, progress: status.data ?? null };

  // Each import is told once, when its status settles (an upload failure is told by the mutation).
  const handled = useRef<string | null>(null);
  const finish = useEffectEvent(() => {
    if (run.phase !== 'ended' || run.id === null) return;
    handled.current = run.id;
    if (run.error === null && run.result) onDone?.(run.result);
    else onFailed?.(run.error ?? '', run.result);
  });
  const endedId = run.phase === 'ended' ? run.id : null;
  useEffect(() => {
    if (endedId !== null && endedId !== handled.current) finish();
  }, [endedId]);

  return { run, start: (file: File) => upload.mutate(file) };
}
