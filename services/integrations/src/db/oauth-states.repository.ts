import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '@haven/kit/db';
import { oauthStates } from './schema';

export type OAuthStateRow = typeof oauthStates.$inferSelect;
export type OAuthStateInsert = typeof oauthStates.$inferInsert;

/** The only code that reads and writes `oauth_states` (consents in progress). */
export function oauthStatesRepository(db: Db) {
  return {
    async insert(row: OAuthStateInsert): Promise<void> {
      await db.insert(oauthStates).values(row);
    },

    /** The state of `nonce` if it has not expired by `now`, deleted in the same statement (single use). */
    async take(nonce: string, now: Date): Promise<OAuthStateRow | undefined> {
      const [row] = await db
        .delete(oauthStates)
        .where(and(eq(oauthStates.nonce, nonce), gt(oauthStates.expiresAt, now)))
        .returning();
      return row;
    },
  };
}
export type OAuthStatesRepository = ReturnType<typeof oauthStatesRepository>;
