import type { gmail_v1 } from 'googleapis';
import type { BlindIndex } from '@haven/kit/blind-index';
import type { IntegrationRow } from '../../db/integrations.repository';
import type { PushChannel } from './channel';

/** Google asks for `watch` to be called again at least every 7 days, and suggests once a day. */
const RENEW_WITHIN_MS = 6 * 24 * 3600_000;
/** What a watch lasts when Google's answer gives no expiration. */
const WATCH_MS = 7 * 24 * 3600_000;

/** A Gmail address as Pub/Sub's notifications name it, for the blind index. */
export const gmailPushAddress = (address: string) => address.trim().toLowerCase();

/**
 * Gmail's push: `users.watch` on the inbox and Sent to a Pub/Sub topic, whose push subscription
 * posts to `/api/push/google`. Notifications name the mailbox by its address, so the account's key
 * is a keyed hash of it: the address itself stays encrypted.
 */
export function gmailWatch(
  gmailOf: (row: IntegrationRow) => gmail_v1.Gmail,
  topicName: string,
  keyOf: BlindIndex,
): PushChannel {
  return {
    renewWithinMs: RENEW_WITHIN_MS,
    keyFor: (_row, address) => (address ? keyOf(gmailPushAddress(address)) : null),
    async renew(row, address) {
      // Pub/Sub names the mailbox by its address: known from the account's first sync on.
      if (!address) throw new Error('the mailbox address is not known yet');
      const { data } = await gmailOf(row).users.watch({
        userId: 'me',
        requestBody: { topicName, labelIds: ['INBOX', 'SENT'], labelFilterBehavior: 'include' },
      });
      const ends = Number(data.expiration);
      return {
        pushKey: keyOf(gmailPushAddress(address)),
        expiresAt: new Date(Number.isFinite(ends) && ends > 0 ? ends : Date.now() + WATCH_MS),
      };
    },
    async stop(row) {
      await gmailOf(row).users.stop({ userId: 'me' });
    },
  };
}
