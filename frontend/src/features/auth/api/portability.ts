import { HttpError } from '@haven/contracts/client';
import type { ErrorBody } from '@haven/contracts/errors';
import {
  IMPORT_LIMITS,
  portabilityContract,
  type ExportProgress,
  type ImportProgress,
} from '@haven/contracts/portability';

import { api } from '@/lib/api';

/** Starts building the export zip on the server. */
export const startExport = () => api(portabilityContract.startExport);
export const exportStatus = (id: string): Promise<ExportProgress> =>
  api(portabilityContract.exportStatus, { params: { id }, noCache: true });
/** The address the browser downloads the zip from (once). */
export const downloadHref = (id: string) => `/api/account/export/${encodeURIComponent(id)}/download`;

/**
 * Uploads a zip to import. The body is the file itself (`application/zip`), which the JSON client
 * does not send, so this one call uses fetch directly, failing the same way the client does.
 */
export async function startImport(file: File): Promise<{ id: string }> {
  if (file.size > IMPORT_LIMITS.bytes)
    throw new Error(`The file is larger than ${IMPORT_LIMITS.bytes / 1024 / 1024} MB`);
  const res = await fetch(portabilityContract.startImport.path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/zip' },
    body: file,
  });
  const text = await res.text();
  if (!res.ok) {
    let body: ErrorBody | undefined;
    try {
      body = JSON.parse(text) as ErrorBody;
    } catch {
      body = undefined;
    }
    throw new HttpError(res.status, text || res.statusText, body);
  }
  return JSON.parse(text) as { id: string };
}
export const importStatus = (id: string): Promise<ImportProgress> =>
  api(portabilityContract.importStatus, { params: { id }, noCache: true });

/** Polls `read` every 800 ms until `done` says so; resolves with the last answer. */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  onEach: (value: T) => void,
) {
  for (;;) {
    const value = await read();
    onEach(value);
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 800));
  }
}
