import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import {
  keepOnlyProviderItems,
  latestProviderItems,
  upsertProviderItems,
} from '../../db/provider-items.repository';
import type { Row } from '../accounts';
import { itemContext } from '../contexts';

/** An item as a sync caches it: its kind, its id at the provider, and what is shown (encrypted). */
export interface ItemToCache {
  kind: string;
  externalId: string;
  at: Date;
  needsReply: boolean;
  data: unknown;
}

/** The Slack and Notion items cached per account, encrypted. */
export function itemCache({ db, cipher }: { db: Db; cipher: FieldCipher }) {
  return {
    /** Replaces the cached items of `kinds` with `items` (what is gone from the provider leaves). */
    async replaceItems(row: Row, kinds: string[], items: ItemToCache[]): Promise<void> {
      await upsertProviderItems(
        db,
        items.map((item) => ({
          integrationId: row.id,
          userId: row.userId,
          kind: item.kind,
          externalId: item.externalId,
          at: item.at,
          needsReply: item.needsReply,
          dataEnc: cipher.encrypt(JSON.stringify(item.data), itemContext(row.userId)),
        })),
      );
      for (const kind of kinds)
        await keepOnlyProviderItems(
          db,
          row.id,
          kind,
          items.filter((i) => i.kind === kind).map((i) => i.externalId),
        );
    },

    /** The latest cached items of `kinds`, at most `limit` (only those needing a reply, if asked). */
    async cached<T>(row: Row, kinds: string[], limit: number, onlyNeedingReply = false): Promise<T[]> {
      const rows = await latestProviderItems(db, row.id, kinds, limit, onlyNeedingReply);
      return rows.map((r) => JSON.parse(cipher.decrypt(r.dataEnc, itemContext(r.userId))) as T);
    },
  };
}
export type ItemCache = ReturnType<typeof itemCache>;
