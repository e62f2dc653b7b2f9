import { z } from 'zod';
import { createBlindIndex } from '@haven/kit/blind-index';
import { DecryptionError, type FieldCipher } from '@haven/kit/crypto';
import { tagsContext } from './contexts';

/** Encryption context: tags only decrypt as tags of their own owner's thoughts. */

/** How a tag is compared: the way the contract de-duplicates them (trimmed, case-insensitive). */
export const normaliseTag = (tag: string) => tag.trim().toLowerCase();

const StoredTags = z.array(z.string());

/** The stored form of a thought's tags: what a write sets, clearing any legacy plaintext. */
export interface SealedTags {
  tagsEnc: string | null;
  tagIndex: string[];
  legacyTags: null;
}

/** The tag columns of a stored row, as every read selects them. */
export interface StoredTagColumns {
  userId: number;
  tagsEnc: string | null;
  legacyTags: string[] | null;
}

/**
 * Encrypts tags and computes their blind index. The index key is derived from the current data key,
 * the one `cipher` encrypts with, so a row whose `tags_enc` names an older key id also has an index
 * built with the older key, and is sealed again at start-up (see tag-migration.ts).
 */
export function createTagSealer(cipher: FieldCipher, dataKey: string) {
  const index = createBlindIndex(dataKey, 'tag-index');
  const tokenOf = (userId: number, tag: string) => index(`${userId}:${normaliseTag(tag)}`);

  return {
    /** The index token a search for `tag` by `userId` looks for. */
    tokenOf,

    seal(userId: number, tags: string[]): SealedTags {
      if (tags.length === 0) return { tagsEnc: null, tagIndex: [], legacyTags: null };
      return {
        tagsEnc: cipher.encrypt(JSON.stringify(tags), tagsContext(userId)),
        tagIndex: [...new Set(tags.map((tag) => tokenOf(userId, tag)))],
        legacyTags: null,
      };
    },

    /**
     * A row's tags. Plaintext left from before encryption is the truth until the start-up migration
     * seals it (and clears it), so a row is never read from both.
     */
    open(row: StoredTagColumns): string[] {
      if (row.legacyTags) return row.legacyTags;
      if (!row.tagsEnc) return [];
      const parsed = StoredTags.safeParse(JSON.parse(cipher.decrypt(row.tagsEnc, tagsContext(row.userId))));
      if (!parsed.success) throw new DecryptionError('Stored tags are not a list of strings');
      return parsed.data;
    },
  };
}
export type TagSealer = ReturnType<typeof createTagSealer>;
