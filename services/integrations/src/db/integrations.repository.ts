import { and, eq, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { integrations } from './schema';

// The only code that reads and writes `integrations` (the connected accounts and their sync state).

export type IntegrationRow = typeof integrations.$inferSelect;

/** What a completed consent stores (tokens and account already encrypted). */
export interface ConsentValues {
  userId: number;
  provider: string;
  type: string;
  accessTokenEnc: string | null;
  /** Null when the provider sent none: a reconnect then keeps the one stored. */
  refreshTokenEnc: string | null;
  expiresAt: Date | null;
  scope: string | null;
  accountEnc: string | null;
  nextSyncAt: Date;
}

/** Accounts that can be called: tokens stored, no connection issue. */
const usable = and(
  or(isNotNull(integrations.accessTokenEnc), isNotNull(integrations.refreshTokenEnc)),
  sql`not (${integrations.settings} ? 'error')`,
);

const byIdIs = (id: number) => eq(integrations.id, id);

// The accounts themselves: found, connected, their tokens, settings and address.

export async function findIntegration(db: DbOrTx, id: number): Promise<IntegrationRow | undefined> {
  const [row] = await db.select().from(integrations).where(byIdIs(id));
  return row;
}

/** The user's integration `id`; another user's is not found. */
export async function findOwnedIntegration(
  db: DbOrTx,
  userId: number,
  id: number,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(byIdIs(id), eq(integrations.userId, userId)));
  return row;
}

/** The user's account of `provider` and `type`, whatever its state. */
export async function findIntegrationOfUser(
  db: DbOrTx,
  userId: number,
  provider: string,
  type: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(
      and(eq(integrations.userId, userId), eq(integrations.provider, provider), eq(integrations.type, type)),
    );
  return row;
}

/** The user's accounts, of one provider or type when asked, oldest first. */
export function listIntegrationsOfUser(
  db: DbOrTx,
  userId: number,
  only: { provider?: string; type?: string } = {},
): Promise<IntegrationRow[]> {
  return db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.userId, userId),
        only.provider ? eq(integrations.provider, only.provider) : undefined,
        only.type ? eq(integrations.type, only.type) : undefined,
      ),
    )
    .orderBy(integrations.id);
}

/**
 * Stores a completed consent and asks for its first sync, in the caller's transaction. A
 * reconnect updates the same row: it clears a past error and starts the next sync afresh
 * (perhaps another account), keeping the stored refresh token when none came.
 */
export async function connectIntegration(tx: DbOrTx, values: ConsentValues): Promise<IntegrationRow> {
  const { userId, provider, type, refreshTokenEnc, ...granted } = values;
  const [stored] = await tx
    .insert(integrations)
    .values({ userId, provider, type, ...granted, refreshTokenEnc, syncRequest: 1 })
    .onConflictDoUpdate({
      target: [integrations.userId, integrations.provider, integrations.type],
      set: {
        ...granted,
        ...(refreshTokenEnc ? { refreshTokenEnc } : {}),
        settings: sql`${integrations.settings} - 'error'`,
        syncCursor: null,
        syncBackoffs: 0,
        syncRequest: sql`${integrations.syncRequest} + 1`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return stored!;
}

/** Stores tokens (encrypted) that the provider refreshed; only those given change. */
export async function setTokens(
  db: DbOrTx,
  id: number,
  tokens: { accessTokenEnc?: string; refreshTokenEnc?: string; expiresAt?: Date },
): Promise<void> {
  await db.update(integrations).set(tokens).where(byIdIs(id));
}

/** Records a connection issue in the settings (the rounds skip the account until a reconnect). */
export async function markIntegrationError(db: DbOrTx, id: number, message: string): Promise<void> {
  await db
    .update(integrations)
    .set({ settings: sql`${integrations.settings} || ${JSON.stringify({ error: message })}::jsonb` })
    .where(byIdIs(id));
}

/** Replaces the settings and the contextual rules (encrypted) that are given. */
export async function updateIntegrationSettings(
  db: DbOrTx,
  id: number,
  patch: { settings?: Record<string, unknown>; contextualRulesEnc?: string | null },
): Promise<IntegrationRow> {
  const [updated] = await db
    .update(integrations)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(byIdIs(id))
    .returning();
  return updated!;
}

/** Stores the account's own address (encrypted). */
export async function setAccountAddress(db: DbOrTx, id: number, accountEnc: string): Promise<void> {
  await db.update(integrations).set({ accountEnc }).where(byIdIs(id));
}

/** Deletes the account; its caches go with it (foreign key cascade). */
export async function deleteIntegration(db: DbOrTx, id: number): Promise<void> {
  await db.delete(integrations).where(byIdIs(id));
}

// When each account syncs: its turns, backoff, requests and the providers' push.

/** A sync succeeded: what it learnt is stored, the backoff reset and the next turn set. */
export async function markSynced(
  db: DbOrTx,
  id: number,
  learnt: { syncCursor?: string; accountEnc?: string },
  nextSyncAt: Date,
): Promise<void> {
  await db
    .update(integrations)
    .set({
      ...learnt,
      syncBackoffs: 0,
      lastSyncedAt: sql`now()`,
      updatedAt: sql`now()`,
      nextSyncAt,
    })
    .where(byIdIs(id));
}

/** A sync was rate limited: the `syncBackoffs`-th in a row, tried again at `nextSyncAt`. */
export async function backOffSync(
  db: DbOrTx,
  id: number,
  syncBackoffs: number,
  nextSyncAt: Date,
): Promise<void> {
  await db.update(integrations).set({ syncBackoffs, nextSyncAt }).where(byIdIs(id));
}

/** Usable accounts of `provider` with autoSync on, oldest first (the ones a push is watched for). */
export function watchableIntegrations(db: DbOrTx, provider: string): Promise<IntegrationRow[]> {
  return db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.provider, provider),
        usable,
        sql`coalesce((${integrations.settings} ->> 'autoSync')::boolean, true)`,
      ),
    )
    .orderBy(integrations.id);
}

/** Usable accounts of `provider` that its push notifications name by `pushKey`. */
export function integrationsPushedTo(
  db: DbOrTx,
  provider: string,
  pushKey: string,
): Promise<IntegrationRow[]> {
  return db
    .select()
    .from(integrations)
    .where(and(eq(integrations.provider, provider), eq(integrations.pushKey, pushKey), usable));
}

/** Records the account's push (its key and end), or that nothing pushes for it (nulls). */
export async function setPush(
  db: DbOrTx,
  id: number,
  push: { pushKey: string | null; pushExpiresAt: Date | null },
): Promise<void> {
  await db.update(integrations).set(push).where(byIdIs(id));
}

/** Asks for one more sync of the account now, in the caller's transaction; answers the request. */
export async function requestSync(tx: DbOrTx, id: number): Promise<number | undefined> {
  const [row] = await tx
    .update(integrations)
    .set({ syncRequest: sql`${integrations.syncRequest} + 1` })
    .where(and(byIdIs(id), usable))
    .returning({ request: integrations.syncRequest });
  return row?.request;
}

/**
 * Claims the next turn of every usable account with autoSync on whose sync is due, in the same
 * statement that finds them (two rounds never claim one turn twice); answers the requests made.
 */
export function claimDueSyncs(
  db: DbOrTx,
  nextSyncAt: Date,
): Promise<Array<{ integrationId: number; request: number }>> {
  return db
    .update(integrations)
    .set({ syncRequest: sql`${integrations.syncRequest} + 1`, nextSyncAt })
    .where(
      and(
        usable,
        sql`coalesce((${integrations.settings} ->> 'autoSync')::boolean, true)`,
        or(isNull(integrations.nextSyncAt), lte(integrations.nextSyncAt, sql`now()`)),
      ),
    )
    .returning({ integrationId: integrations.id, request: integrations.syncRequest });
}

/** Usable Google accounts with a refresh token whose access token expires before `before`. */
export function googleExpiringBefore(
  db: DbOrTx,
  before: Date,
): Promise<Array<{ integrationId: number; expiresAt: Date | null }>> {
  return db
    .select({ integrationId: integrations.id, expiresAt: integrations.expiresAt })
    .from(integrations)
    .where(
      and(
        eq(integrations.provider, 'google'),
        isNotNull(integrations.refreshTokenEnc),
        usable,
        lt(integrations.expiresAt, before),
      ),
    );
}
