/**
 * The contexts (AAD) each kind of encrypted value is bound to: a value decrypts only under its own.
 * Kept here, apart from the code that writes them, so the re-encryption pass (scripts/rekey.ts) reads
 * them without loading the service.
 */
export const contentContext = (userId: number) => `thoughts.content:${userId}`;
export const audioContext = (userId: number) => `thoughts.audio:${userId}`;
export const embeddingContext = (userId: number) => `thoughts.embedding:${userId}`;
export const tagsContext = (userId: number) => `thoughts.tags:${userId}`;
