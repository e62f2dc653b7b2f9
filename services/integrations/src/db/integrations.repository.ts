import { and, eq, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@haven/kit/db';
import { integrations } from './schema';

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

/** The only code that reads and writes `integrations` (the connected accounts and their sync state). */
export function integrationsRepository(db: Db) {
  return { ...accountRows(db), ...syncState(db) };
}
export type IntegrationsRepository = ReturnType<typeof integrationsRepository>;

/** The accounts themselves: found, connected, their tokens, settings and address. */
function accountRows(db: Db) {
  return {
    async byId(id: number): Promise<IntegrationRow | undefined> {
      const [row] = await db.select().from(integrations).where(byIdIs(id));
      return row;
    },

    /** The user's integration `id`; another user's is not found. */
    async owned(userId: number, id: number): Promise<IntegrationRow | undefined> {
      const [row] = await db
        .select()
        .from(integrations)
        .where(and(byIdIs(id), eq(integrations.userId, userId)));
      return row;
    },

    /** The user's account of `provider` and `type`, whatever its state. */
    async ofUser(userId: number, provider: string, type: string): Promise<IntegrationRow | undefined> {
      const [row] = await db
        .select()
        .from(integrations)
        .where(
          and(
            eq(integrations.userId, userId),
            eq(integrations.provider, provider),
            eq(integrations.type, type),
          ),
        );
      return row;
    },

    /** The user's accounts, of one provider or type when asked, oldest first. */
    listOfUser: (
      userId: number,
      only: { provider?: string; type?: string } = {},
    ): Promise<IntegrationRow[]> =>
      db
        .select()
        .from(integrations)
        .where(
          and(
            eq(integrations.userId, userId),
            only.provider ? eq(integrations.provider, only.provider) : undefined,
            only.type ? eq(integrations.type, only.type) : undefined,
          ),
        )
        .orderBy(integrations.id),

    /**
     * Stores a completed consent and asks for its first sync, in the caller's transaction. A
     * reconnect updates the same row: it clears a past error and starts the next sync afresh
     * (perhaps another account), keeping the stored refresh token when none came.
     */
    async connect(tx: DbOrTx, values: ConsentValues): Promise<IntegrationRow> {
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
    },

    /** Stores tokens (encrypted) that the provider refreshed; only those given change. */
    async setTokens(
      id: number,
      tokens: { accessTokenEnc?: string; refreshTokenEnc?: string; expiresAt?: Date },
    ): Promise<void> {
      await db.update(integrations).set(tokens).where(byIdIs(id));
    },

    /** Records a connection issue in the settings (the rounds skip the account until a reconnect). */
    async markError(id: number, message: string): Promise<void> {
      await db
        .update(integrations)
        .set({ settings: sql`${integrations.settings} || ${JSON.stringify({ error: message })}::jsonb` })
        .where(byIdIs(id));
    },

    /** Replaces the settings and the contextual rules (encrypted) that are given. */
    async updateSettings(
      id: number,
      patch: { settings?: Record<string, unknown>; contextualRulesEnc?: string | null },
    ): Promise<IntegrationRow> {
      const [updated] = await db
        .update(integrations)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(byIdIs(id))
        .returning();
      return updated!;
    },

    /** Stores the account's own address (encrypted). */
    async setAccount(id: number, accountEnc: string): Promise<void> {
      await db.update(integrations).set({ accountEnc }).where(byIdIs(id));
    },

    /** Deletes the account; its caches go with it (foreign key cascade). */
    async remove(id: number): Promise<void> {
      await db.delete(integrations).where(byIdIs(id));
    },
  };
}

/** When each account syncs: its turns, backoff, requests and the providers' push. */
function syncState(db: Db) {
  return {
    /** A sync succeeded: what it learnt is stored, the backoff reset and the next turn set. */
    async synced(
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
    },

    /** A sync was rate limited: the `syncBackoffs`-th in a row, tried again at `nextSyncAt`. */
    async backOff(id: number, syncBackoffs: number, nextSyncAt: Date): Promise<void> {
      await db.update(integrations).set({ syncBackoffs, nextSyncAt }).where(byIdIs(id));
    },

    /** Usable accounts of `provider` with autoSync on, oldest first (the ones a push is watched for). */
    watchable: (provider: string): Promise<IntegrationRow[]> =>
      db
        .select()
        .from(integrations)
        .where(
          and(
            eq(integrations.provider, provider),
            usable,
            sql`coalesce((${integrations.settings} ->> 'autoSync')::boolean, true)`,
          ),
        )
        .orderBy(integrations.id),

    /** Usable accounts of `provider` that its push notifications name by `pushKey`. */
    pushedTo: (provider: string, pushKey: string): Promise<IntegrationRow[]> =>
      db
        .select()
        .from(integrations)
        .where(and(eq(integrations.provider, provider), eq(integrations.pushKey, pushKey), usable)),

    /** Records the account's push (its key and end), or that nothing pushes for it (nulls). */
    async setPush(id: number, push: { pushKey: string | null; pushExpiresAt: Date | null }): Promise<void> {
      await db.update(integrations).set(push).where(byIdIs(id));
    },

    /** Asks for one more sync of the account now, in the caller's transaction; answers the request. */
    async requestSync(tx: DbOrTx, id: number): Promise<number | undefined> {
      const [row] = await tx
        .update(integrations)
        .set({ syncRequest: sql`${integrations.syncRequest} + 1` })
        .where(and(byIdIs(id), usable))
        .returning({ request: integrations.syncRequest });
      return row?.request;
    },

    /**
     * Claims the next turn of every usable account with autoSync on whose sync is due, in the same
     * statement that finds them (two rounds never claim one turn twice); answers the requests made.
     */
    claimDueSyncs: (nextSyncAt: Date): Promise<Array<{ integrationId: number; request: number }>> =>
      db
        .update(integrations)
        .set({ syncRequest: sql`${integrations.syncRequest} + 1`, nextSyncAt })
        .where(
          and(
            usable,
            sql`coalesce((${integrations.settings} ->> 'autoSync')::boolean, true)`,
            or(isNull(integrations.nextSyncAt), lte(integrations.nextSyncAt, sql`now()`)),
          ),
        )
        .returning({ integrationId: integrations.id, request: integrations.syncRequest }),

    /** Usable Google accounts with a refresh token whose access token expires before `before`. */
    googleExpiringBefore: (before: Date): Promise<Array<{ integrationId: number; expiresAt: Date | null }>> =>
      db
        .select({ integrationId: integrations.id, expiresAt: integrations.expiresAt })
        .from(integrations)
        .where(
          and(
            eq(integrations.provider, 'google'),
            isNotNull(integrations.refreshTokenEnc),
            usable,
            lt(integrations.expiresAt, before),
          ),
        ),
  };
}
