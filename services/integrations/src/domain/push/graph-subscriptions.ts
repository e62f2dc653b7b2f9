import { createHmac } from 'node:crypto';
import type { IntegrationRow } from '../../db/integrations.repository';
import { graphNotFound, type GraphClient } from '../microsoft';
import type { PushChannel } from './channel';

/**
 * Graph keeps a mail or event subscription under 7 days (10,080 minutes); three days, renewed when
 * less than two are left, lets a sync a day keep it alive with room for an outage.
 */
const LIFETIME_MS = 3 * 24 * 3600_000;
const RENEW_WITHIN_MS = 2 * 24 * 3600_000;

interface Subscription {
  id: string;
  expirationDateTime: string;
}

/**
 * Microsoft Graph's change notifications: a subscription per account to new mail (inbox and Sent
 * Items alike) or to its calendar's events, notifying `notificationUrl` with a client state that
 * only this server can compute (a keyed hash of the account's id), so a forged notification naming
 * a real subscription is ignored.
 */
export function graphSubscriptions(
  graphOf: (row: IntegrationRow) => GraphClient,
  notificationUrl: string,
  clientStateOf: (integrationId: number) => string,
): PushChannel {
  const resourceOf = (row: IntegrationRow) =>
    row.type === 'calendar'
      ? { resource: 'me/events', changeType: 'created,updated,deleted' }
      : { resource: 'me/messages', changeType: 'created' };
  const ends = () => new Date(Date.now() + LIFETIME_MS).toISOString();

  async function create(row: IntegrationRow) {
    return (await graphOf(row)
      .api('/subscriptions')
      .post({
        ...resourceOf(row),
        notificationUrl,
        // Graph says here when it removed the subscription or missed changes.
        lifecycleNotificationUrl: notificationUrl,
        expirationDateTime: ends(),
        clientState: clientStateOf(row.id),
      })) as Subscription;
  }

  return {
    renewWithinMs: RENEW_WITHIN_MS,
    keyFor: () => null,
    async renew(row, _address, current) {
      let subscription: Subscription | undefined;
      if (current) {
        try {
          subscription = (await graphOf(row)
            .api(`/subscriptions/${encodeURIComponent(current.pushKey)}`)
            .patch({ expirationDateTime: ends() })) as Subscription;
        } catch (err) {
          // Expired or removed by Graph: a new one.
          if (!graphNotFound(err)) throw err;
        }
      }
      subscription ??= await create(row);
      return { pushKey: subscription.id, expiresAt: new Date(subscription.expirationDateTime) };
    },
    async stop(row, current) {
      await graphOf(row)
        .api(`/subscriptions/${encodeURIComponent(current.pushKey)}`)
        .delete()
        .catch((err: unknown) => {
          if (!graphNotFound(err)) throw err;
        });
    },
  };
}

/** The client state of an account's subscription: HMAC of its id under a key of its own. */
export function graphClientState(key: Buffer) {
  return (integrationId: number) =>
    createHmac('sha256', key).update(`graph-subscription:${integrationId}`).digest('base64url');
}
