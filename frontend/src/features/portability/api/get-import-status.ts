import { portabilityContract, type ImportProgress } from '@haven/contracts/portability';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { pollWhileUnderway } from '@/features/portability/lib/transfer-polling';
import { api } from '@/lib/api';

export const importKeys = {
  all: ['portability', 'import'] as const,
  status: (id: string) => ['portability', 'import', id] as const,
};

/** How far an import is, with its counts and first problems (never from a cache: it is polled). */
export const getImportStatus = (id: string): Promise<ImportProgress> =>
  api(portabilityContract.importStatus, { params: { id }, noCache: true });

/** Polled until the import is done, failed or expired. */
export function getImportStatusQueryOptions(id: string) {
  return queryOptions({
    queryKey: importKeys.status(id),
    queryFn: () => getImportStatus(id),
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: pollWhileUnderway,
  });
}

/** The status of import `id`, followed while it runs; idle without an id. Unmounting stops it. */
export function useImportStatus(id: string | null) {
  return useQuery({ ...getImportStatusQueryOptions(id ?? ''), enabled: id !== null });
}
