import { IMPORT_LIMITS, inMegabytes } from '@haven/contracts/portability';
import type { ServiceName } from '@haven/contracts/routes';

/** Largest request body the gateway lets through (a thought's audio, 10 MB, travels as base64). */
export const MAX_BODY_BYTES = 15 * 1024 * 1024;

/** A 413 says the limit, so a person knows what would fit. */
export const tooLargeMessage = (bytes: number) =>
  `The request body is larger than ${inMegabytes(bytes)}, the limit here`;

/** The portability service takes an import's zip as the body, streamed to storage as it comes. */
export const bodyLimitOf = (service: ServiceName) =>
  service === 'portability' ? IMPORT_LIMITS.bytes + 64 * 1024 : MAX_BODY_BYTES;
