import { timingSafeEqual } from 'node:crypto';
import { GmailPushData, type GraphNotificationsBody, type PubSubPushBody } from '@haven/contracts/push';
import type { BlindIndex } from '@haven/kit/blind-index';
import { badRequest, forbidden, notFound } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import type { Db } from '@haven/kit/db';
import { integrationsPushedTo, setPush, type IntegrationRow } from '../../db/integrations.repository';
import type { PushChannel, PushState } from './channel';
import { gmailPushAddress } from './gmail-watch';

export interface PushDeps {
  db: Db;
  /** Each provider's push by `provider:type` (`google:email`), when this server is set up for it. */
  channels: Partial<Record<string, PushChannel>>;
  /** Whether an account without a channel is pushed some other way (IMAP IDLE). */
  watched(row: IntegrationRow): Promise<boolean>;
  /** Asks for the account's sync now (through the outbox). */
  changed(row: IntegrationRow): Promise<void>;
  /** The secret Pub/Sub's push endpoint URL carries; undefined when Gmail is not pushed. */
  gmailToken: string | undefined;
  gmailKeyOf: BlindIndex;
  /** The client state each Graph subscription of the account carries. */
  graphClientStateOf(integrationId: number): string;
  log: Logger;
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const autoSyncOn = (row: IntegrationRow) =>
  (row.settings as { autoSync?: boolean } | null)?.autoSync !== false;

/**
 * Sync by the providers' push, with polling as the safety net: after each sync the account's push
 * (a Gmail watch, a Graph subscription) is started or renewed, and a notification naming the
 * account asks for its sync at once. Whether an account is pushed decides how often it is polled.
 */
export function createPush(deps: PushDeps) {
  const { db, channels, log } = deps;

  const channelOf = (row: IntegrationRow) => channels[`${row.provider}:${row.type}`];
  const stateOf = (row: IntegrationRow): PushState | null =>
    row.pushKey && row.pushExpiresAt ? { pushKey: row.pushKey, expiresAt: row.pushExpiresAt } : null;

  /** Whether the stored push is missing, ending soon, or keyed by what the account no longer is. */
  function needsRenewal(channel: PushChannel, row: IntegrationRow, address: string): boolean {
    const current = stateOf(row);
    if (!current) return true;
    const key = channel.keyFor(row, address);
    if (key !== null && key !== current.pushKey) return true;
    return current.expiresAt.getTime() - Date.now() < channel.renewWithinMs;
  }

  /**
   * After a sync of `row` (whose own address is `address`): its push started or renewed when due.
   * Answers whether the provider pushes the account's changes now. A failure to renew is logged
   * and the account polled as usual: push only makes syncs sooner.
   */
  async function keep(row: IntegrationRow, address: string): Promise<boolean> {
    const channel = channelOf(row);
    if (!channel) return deps.watched(row);
    if (!autoSyncOn(row)) return false;
    if (!needsRenewal(channel, row, address)) return true;
    try {
      const renewed = await channel.renew(row, address, stateOf(row));
      await setPush(db, row.id, { pushKey: renewed.pushKey, pushExpiresAt: renewed.expiresAt });
      return renewed.expiresAt.getTime() > Date.now();
    } catch (err) {
      log.warn({ err, integrationId: row.id }, 'push not renewed; the account is polled');
      return false;
    }
  }

  /** Before an account goes: its push stopped at the provider, when it has one (best effort). */
  async function stop(row: IntegrationRow): Promise<void> {
    const channel = channelOf(row);
    const current = stateOf(row);
    if (!channel || !current) return;
    await channel
      .stop(row, current)
      .catch((err: unknown) => log.warn({ err, integrationId: row.id }, 'push not stopped'));
  }

  /** The accounts a notification names, asked to sync (those with autoSync off are left alone). */
  async function notify(rows: IntegrationRow[]): Promise<number> {
    const on = rows.filter(autoSyncOn);
    for (const row of on) await deps.changed(row);
    return on.length;
  }

  /** A Pub/Sub push of Gmail's: the mailbox named, by its keyed hash, asked to sync. */
  async function gmailNotified(token: string | undefined, push: PubSubPushBody): Promise<void> {
    if (!channels['google:email'] || !deps.gmailToken)
      throw notFound('Gmail push is not configured on this server');
    if (!token || !sameSecret(token, deps.gmailToken)) throw forbidden('The push token is not this server’s');
    let data: GmailPushData;
    try {
      data = GmailPushData.parse(JSON.parse(Buffer.from(push.message.data, 'base64').toString('utf8')));
    } catch {
      throw badRequest('Invalid body: message.data is not a Gmail notification (base64 JSON)');
    }
    const key = deps.gmailKeyOf(gmailPushAddress(data.emailAddress));
    const rows = await integrationsPushedTo(db, 'google', key);
    const asked = await notify(rows.filter((row) => row.type === 'email'));
    log.debug({ asked }, 'gmail push');
  }

  /**
   * Graph's notifications: each whose subscription and client state are an account's asks for its
   * sync; a lifecycle notification (subscription removed, missed changes, reauthorization) also has
   * the subscription renewed by that sync. Others are ignored, as Graph expects.
   */
  async function graphNotified(body: GraphNotificationsBody): Promise<void> {
    const named = new Map<number, IntegrationRow>();
    for (const n of body.value) {
      const [row] = await integrationsPushedTo(db, 'microsoft', n.subscriptionId);
      if (!row || !n.clientState || !sameSecret(n.clientState, deps.graphClientStateOf(row.id))) {
        log.info({ subscriptionId: n.subscriptionId }, 'graph notification ignored');
        continue;
      }
      if (n.lifecycleEvent && n.lifecycleEvent !== 'missed')
        await setPush(db, row.id, { pushKey: row.pushKey, pushExpiresAt: new Date(0) });
      named.set(row.id, row);
    }
    await notify([...named.values()]);
  }

  return { keep, stop, gmailNotified, graphNotified };
}
export type Push = ReturnType<typeof createPush>;
