import { portabilityContract, type ExportProgress } from '@haven/contracts/portability';

import { api } from '@/lib/api';

/** How far the export zip is (never from a cache: it is polled). */
export const getExportStatus = (id: string): Promise<ExportProgress> =>
  api(portabilityContract.exportStatus, { params: { id }, noCache: true });
