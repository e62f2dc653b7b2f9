import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '@haven/kit/db';
import { insertOAuthState, takeOAuthState } from '../db/oauth-states.repository';

/** How long a consent may take. */
const STATE_TTL_MS = 10 * 60_000;

export interface StateClaims {
  userId: number;
  provider: string;
  type: string;
  /** The consent's return address when it is not the server callback. */
  redirectUri?: string | null;
}

/**
 * OAuth `state`: a random nonce signed with a key of its own, stored with the user, provider and
 * type it was issued for. It works once (the row is deleted as it is used) and for ten minutes; a
 * forged, replayed, expired or unknown state finds nothing.
 */
export function createStateStore(db: Db, key: Buffer) {
  const sign = (nonce: string) => createHmac('sha256', key).update(nonce).digest('base64url');

  return {
    async issue(claims: StateClaims): Promise<string> {
      const nonce = randomBytes(24).toString('base64url');
      await insertOAuthState(db, { nonce, ...claims, expiresAt: new Date(Date.now() + STATE_TTL_MS) });
      return `${nonce}.${sign(nonce)}`;
    },

    /** The claims of a valid state, consuming it; null for anything else. */
    async consume(state: string | undefined): Promise<StateClaims | null> {
      if (!state) return null;
      const [nonce, signature, extra] = state.split('.');
      if (!nonce || !signature || extra !== undefined) return null;
      const expected = Buffer.from(sign(nonce));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const row = await takeOAuthState(db, nonce, new Date());
      return row
        ? { userId: row.userId, provider: row.provider, type: row.type, redirectUri: row.redirectUri }
        : null;
    },
  };
}
export type StateStore = ReturnType<typeof createStateStore>;
