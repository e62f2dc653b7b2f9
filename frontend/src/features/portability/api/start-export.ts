import { portabilityContract, type TransferStarted } from '@haven/contracts/portability';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

/** Starts building the export zip on the server; its progress is read with `useExportStatus`. */
export const startExport = (): Promise<TransferStarted> => api(portabilityContract.startExport);

export function useStartExport({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof startExport> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: startExport });
}
