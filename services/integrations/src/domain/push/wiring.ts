import type { gmail_v1 } from 'googleapis';
import { createBlindIndex } from '@haven/kit/blind-index';
import { requireSettings, type Config } from '@haven/kit/config';
import type { FieldCipher } from '@haven/kit/crypto';
import { deriveKey } from '@haven/kit/keys';
import type { Logger } from '@haven/kit/logger';
import type { Redis } from '@haven/kit/redis';
import type { Db } from '@haven/kit/db';
import { watchableIntegrations, type IntegrationRow } from '../../db/integrations.repository';
import { createImapWatch, imapWatchKey } from '../mail/imap-watch';
import { openInbox } from '../mail/server-accounts';
import type { GraphClient } from '../microsoft';
import type { PushChannel } from './channel';
import { gmailWatch } from './gmail-watch';
import { graphClientState, graphSubscriptions } from './graph-subscriptions';
import { createPush } from './push';

export interface ProviderPushDeps {
  config: Config;
  appUrl: string;
  db: Db;
  redis: Redis;
  gmailFor(row: IntegrationRow): gmail_v1.Gmail;
  graphOf(row: IntegrationRow): GraphClient;
  /** Asks for the account's sync now. */
  changed(row: IntegrationRow): Promise<void>;
  log: Logger;
}

/**
 * The providers that push on this server: Gmail with a Pub/Sub topic (and its push token), Graph
 * with an address it can call (MICROSOFT_NOTIFICATION_URL, or APP_URL's when it is https); IMAP
 * accounts are pushed while a worker holds them in IDLE.
 */
export function providerPush({
  config,
  appUrl,
  db,
  redis,
  gmailFor,
  graphOf,
  changed,
  log,
}: ProviderPushDeps) {
  const graphStateOf = graphClientState(deriveKey(config.INTERNAL_SECRET, 'graph-client-state'));
  const gmailKeyOf = createBlindIndex(config.DATA_ENCRYPTION_KEY, 'gmail-push');
  const channels: Record<string, PushChannel> = {};
  if (config.GMAIL_PUSH_TOPIC) {
    requireSettings(config, ['GMAIL_PUSH_TOKEN']);
    channels['google:email'] = gmailWatch(gmailFor, config.GMAIL_PUSH_TOPIC, gmailKeyOf);
  }
  const notificationUrl =
    config.MICROSOFT_NOTIFICATION_URL ??
    (appUrl.startsWith('https:') ? `${appUrl}/api/push/microsoft` : undefined);
  if (notificationUrl) {
    const graph = graphSubscriptions(graphOf, notificationUrl, graphStateOf);
    channels['microsoft:email'] = graph;
    channels['microsoft:calendar'] = graph;
  }
  return createPush({
    db,
    channels,
    watched: async (row) =>
      row.provider === 'imap' && (await redis.exists(imapWatchKey(config.REDIS_PREFIX, row.id))) === 1,
    changed,
    gmailToken: config.GMAIL_PUSH_TOKEN,
    gmailKeyOf,
    graphClientStateOf: graphStateOf,
    log,
  });
}

/** Push for mail by its servers: IDLE on up to IMAP_IDLE_MAX inboxes per worker process. */
export function imapWatchFor(deps: {
  config: Config;
  db: Db;
  cipher: FieldCipher;
  redis: Redis;
  changed(row: IntegrationRow): Promise<void>;
  log: Logger;
}) {
  const { config, db, cipher } = deps;
  return createImapWatch({
    accounts: () => watchableIntegrations(db, 'imap'),
    open: (row) => openInbox(row, cipher, config.MAIL_SERVERS_ALLOW_PRIVATE),
    changed: deps.changed,
    redis: deps.redis,
    prefix: config.REDIS_PREFIX,
    max: config.IMAP_IDLE_MAX,
    everyMs: config.IMAP_WATCH_ROUND_MS,
    log: deps.log,
  });
}
