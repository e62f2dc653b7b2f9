import { and, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { oauthStates } from './schema';

// The only code that reads and writes `oauth_states` (consents in progress).

export type OAuthStateRow = typeof oauthStates.$inferSelect;
export type OAuthStateInsert = typeof oauthStates.$inferInsert;

export async function insertOAuthState(db: DbOrTx, row: OAuthStateInsert): Promise<void> {
  await db.insert(oauthStates).values(row);
}

/** The state of `nonce` if it has not expired by `now`, deleted in the same statement (single use). */
export async function takeOAuthState(
  db: DbOrTx,
  nonce: string,
  now: Date,
): Promise<OAuthStateRow | undefined> {
  const [row] = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.nonce, nonce), gt(oauthStates.expiresAt, now)))
    .returning();
  return row;
}
