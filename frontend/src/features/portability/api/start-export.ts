import { portabilityContract } from '@haven/contracts/portability';

import { api } from '@/lib/api';

/** Starts building the export zip on the server; its progress is read with `getExportStatus`. */
export const startExport = () => api(portabilityContract.startExport);
