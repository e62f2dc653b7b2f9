import { fillPath } from '@haven/contracts/client';
import { portabilityContract } from '@haven/contracts/portability';

/** The address the browser downloads the export zip from (once: the server then deletes it). */
export const exportDownloadHref = (id: string) => fillPath(portabilityContract.download.path, { id });
