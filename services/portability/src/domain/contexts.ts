/**
 * The contexts (AAD) each kind of encrypted value is bound to: a value decrypts only under its own.
 * Kept here, apart from the code that writes them, so the re-encryption pass (scripts/rekey.ts) reads
 * them without loading the service.
 */
export const contextOf = (blobId: string, seq: number) => `portability.blob:${blobId}:${seq}`;
export const reportContext = (transferId: string) => `portability.report:${transferId}`;
