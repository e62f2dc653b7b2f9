/**
 * The contexts (AAD) each kind of encrypted value is bound to: a value decrypts only under its own.
 * Kept here, apart from the code that writes them, so the re-encryption pass (scripts/rekey.ts) reads
 * them without loading the service.
 */
export const titleContext = (userId: number) => `assistant.title:${userId}`;
export const contentContext = (userId: number) => `assistant.message:${userId}`;
export const audioContext = (userId: number) => `assistant.audio:${userId}`;
export const metadataContext = (userId: number) => `assistant.metadata:${userId}`;
