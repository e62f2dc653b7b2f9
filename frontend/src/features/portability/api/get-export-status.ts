import { portabilityContract, type ExportProgress } from '@haven/contracts/portability';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { pollWhileUnderway } from '@/features/portability/lib/transfer-polling';
import { api } from '@/lib/api';

export const exportKeys = {
  all: ['portability', 'export'] as const,
  status: (id: string) => ['portability', 'export', id] as const,
};

/** How far the export zip is (never from a cache: it is polled). */
export const getExportStatus = (id: string): Promise<ExportProgress> =>
  api(portabilityContract.exportStatus, { params: { id }, noCache: true });

/** Polled until the export is ready or failed; a transfer's status is never fresh for long. */
export function getExportStatusQueryOptions(id: string) {
  return queryOptions({
    queryKey: exportKeys.status(id),
    queryFn: () => getExportStatus(id),
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: pollWhileUnderway,
  });
}

/** The status of export `id`, followed while it runs; idle without an id. Unmounting stops it. */
export function useExportStatus(id: string | null) {
  return useQuery({ ...getExportStatusQueryOptions(id ?? ''), enabled: id !== null });
}
