import { fillPath } from '@haven/contracts/client';
import { portabilityContract } from '@haven/contracts/portability';

/**
 * The address of an ended import's CSV report (file, outcome, line, reason): a plain same-origin
 * GET the browser downloads with the session cookie.
 */
export const importReportHref = (id: string) => fillPath(portabilityContract.importReport.path, { id });
