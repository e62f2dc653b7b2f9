import { and, desc, eq, inArray, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { excluded } from './excluded';
import { providerItems } from './schema';

// The only code that reads and writes `provider_items` (what the Slack and Notion syncs keep).

export type ProviderItemRow = typeof providerItems.$inferSelect;
export type ProviderItemInsert = typeof providerItems.$inferInsert;

const ofAccount = (integrationId: number) => eq(providerItems.integrationId, integrationId);

/** Stores these items, or updates those already cached (by kind and the provider's id). */
export async function upsertProviderItems(db: DbOrTx, rows: ProviderItemInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(providerItems)
    .values(rows)
    .onConflictDoUpdate({
      target: [providerItems.integrationId, providerItems.kind, providerItems.externalId],
      set: {
        at: excluded('at'),
        needsReply: excluded('needs_reply'),
        dataEnc: excluded('data_enc'),
      },
    });
}

/** Every item of `kind` of the account but `externalIds` (what the provider still has) leaves. */
export async function keepOnlyProviderItems(
  db: DbOrTx,
  integrationId: number,
  kind: string,
  externalIds: string[],
): Promise<void> {
  await db
    .delete(providerItems)
    .where(
      and(
        ofAccount(integrationId),
        eq(providerItems.kind, kind),
        externalIds.length ? notInArray(providerItems.externalId, externalIds) : undefined,
      ),
    );
}

/** The account's newest items of `kinds`, only those needing a reply when asked. */
export function latestProviderItems(
  db: DbOrTx,
  integrationId: number,
  kinds: string[],
  limit: number,
  onlyNeedingReply = false,
): Promise<ProviderItemRow[]> {
  return db
    .select()
    .from(providerItems)
    .where(
      and(
        ofAccount(integrationId),
        inArray(providerItems.kind, kinds),
        onlyNeedingReply ? eq(providerItems.needsReply, true) : undefined,
      ),
    )
    .orderBy(desc(providerItems.at))
    .limit(limit);
}
