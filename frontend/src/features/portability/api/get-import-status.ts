import { portabilityContract, type ImportProgress } from '@haven/contracts/portability';

import { api } from '@/lib/api';

/** How far an import is, with its counts and first problems (never from a cache: it is polled). */
export const getImportStatus = (id: string): Promise<ImportProgress> =>
  api(portabilityContract.importStatus, { params: { id }, noCache: true });
