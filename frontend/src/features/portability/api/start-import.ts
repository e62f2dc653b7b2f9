import { HttpError } from '@haven/contracts/client';
import { useMutation } from '@tanstack/react-query';
import type { ErrorBody } from '@haven/contracts/errors';
import {
  IMPORT_LIMITS,
  inMegabytes,
  portabilityContract,
  TransferStarted,
} from '@haven/contracts/portability';

import type { MutationConfig } from '@/lib/query-client';

/** Why a zip is refused before it is sent, or null when it may be. */
export function tooLargeToImport(file: File): string | null {
  return file.size > IMPORT_LIMITS.bytes
    ? `The file is larger than ${inMegabytes(IMPORT_LIMITS.bytes)}, the most an import takes.`
    : null;
}

/**
 * Uploads a zip to import. The body is the file itself (`application/zip`), which the JSON client
 * does not send, so this one call uses fetch directly, failing the same way the client does.
 */
export async function startImport(file: File): Promise<TransferStarted> {
  const refused = tooLargeToImport(file);
  if (refused) throw new Error(refused);
  const res = await fetch(portabilityContract.startImport.path, {
    method: portabilityContract.startImport.method,
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
  return TransferStarted.parse(JSON.parse(text));
}

export function useStartImport({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof startImport> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: startImport });
}
