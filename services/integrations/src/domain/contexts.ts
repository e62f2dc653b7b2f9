/**
 * The contexts (AAD) each kind of encrypted value is bound to: a value decrypts only under its own.
 * Kept here, apart from the code that writes them, so the re-encryption pass (scripts/rekey.ts) reads
 * them without loading the service.
 */
export const tokenContext = (userId: number) => `integrations.token:${userId}`;
export const rulesContext = (userId: number) => `integrations.rules:${userId}`;
export const accountContext = (userId: number) => `integrations.account:${userId}`;
export const mailContext = (userId: number) => `integrations.mail:${userId}`;
export const itemContext = (userId: number) => `integrations.item:${userId}`;
export const eventContext = (userId: number) => `integrations.event:${userId}`;
