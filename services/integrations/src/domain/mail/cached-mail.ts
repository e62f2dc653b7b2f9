import { z } from 'zod';

/** What the cache encrypts per message, beside the body. */
export const CachedMail = z.object({
  from: z.string(),
  fromFull: z.string(),
  subject: z.string(),
  snippet: z.string(),
  messageIdHeader: z.string().optional(),
  references: z.string().optional(),
  hasRemoteImages: z.boolean().optional(),
});
export type CachedMail = z.infer<typeof CachedMail>;
