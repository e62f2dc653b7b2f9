import { appUrl as publicUrl, requireSettings } from '@haven/kit/config';
import { createBlindIndex } from '@haven/kit/blind-index';
import { deriveKey } from '@haven/kit/keys';
import { createLlm } from '@haven/kit/llm';
import { repoPath } from '@haven/kit/paths';
import { observeProviderCalls } from '@haven/kit/provider-calls';
import type { ServiceDefinition } from '@haven/kit/service';
import { userDeletionJob } from '@haven/kit/user-deletion';
import { calendarEventsRepository } from './db/calendar-events.repository';
import { contactsRepository } from './db/contacts.repository';
import { followUpsRepository } from './db/follow-ups.repository';
import { integrationsRepository, type IntegrationRow } from './db/integrations.repository';
import { mailMessagesRepository } from './db/mail-messages.repository';
import { oauthStatesRepository } from './db/oauth-states.repository';
import { providerItemsRepository } from './db/provider-items.repository';
import { outbox } from './db/schema';
import { createAccounts } from './domain/accounts';
import { createAssist } from './domain/assist';
import { googleCalendarSource } from './domain/calendar/google-source';
import { graphCalendarSource } from './domain/calendar/graph-source';
import { graphMailSource } from './domain/mail/graph-source';
import { graphClient } from './domain/microsoft';
import { calendarOf, gmailOf } from './domain/google';
import type { CalendarSourceOf } from './domain/calendar/source';
import { imapSource } from './domain/mail/imap-source';
import {
  calendarServerAccountOf,
  createServerAccounts,
  openInbox,
  reachableOnly,
  serverAccountOf,
} from './domain/mail/server-accounts';
import { createImapWatch, imapWatchKey } from './domain/mail/imap-watch';
import type { PushChannel } from './domain/push/channel';
import { gmailWatch } from './domain/push/gmail-watch';
import { graphClientState, graphSubscriptions } from './domain/push/graph-subscriptions';
import { createPush } from './domain/push/push';
import { pushRoutes } from './routes/push.routes';
import { caldavSource } from './domain/calendar/caldav-source';
import type { MailSourceOf } from './domain/mail/source';
import { createIntegrations } from './domain/integrations';
import { gmailSource } from './domain/mail/gmail-source';
import { createContacts } from './domain/mail/contacts';
import { createFollowUps } from './domain/mail/follow-ups';
import { createMailSandbox, sandboxedMailParser, sandboxedRawMailParser } from './domain/mail/mail-parser';
import { createMailSync, MAIL_WINDOW_DAYS } from './domain/mail/sync';
import { createStateStore } from './domain/oauth-state';
import { createProviders } from './domain/providers';
import { createAccountSync } from './domain/account-sync';
import { accountSyncJob, legacyMailSyncJob } from './jobs/account-sync.job';
import { refreshJob } from './jobs/refresh.job';
import { createWorkspace } from './domain/workspace/workspace';
import { assistRoutes, integrationsRoutes } from './routes/integrations.routes';

/** The integrations service's composition root. */
export const integrationsService: ServiceDefinition = {
  name: 'integrations',
  migrationsFolder: repoPath('services', 'integrations', 'drizzle'),
  outboxTable: outbox,
  build(deps) {
    const { config, db, cipher, log } = deps;
    const appUrl = publicUrl(config);
    // Every provider's client ids and endpoints, and the public address their consents return to.
    const settings = { ...config, appUrl };
    const llm = createLlm(config, deps.metrics);
    const accountRows = integrationsRepository(db);
    const messages = mailMessagesRepository(db);
    const events = calendarEventsRepository(db);
    const accounts = createAccounts({
      repo: accountRows,
      cipher,
      google: settings,
      microsoft: settings,
      log,
    });
    const followUps = createFollowUps({ repo: followUpsRepository(db), cipher, accounts });
    const contacts = createContacts({ repo: contactsRepository(db), secret: config.DATA_ENCRYPTION_KEY });
    const workspace = createWorkspace({
      repo: providerItemsRepository(db),
      cipher,
      accounts,
      settings,
      log,
    });
    const mailSandbox = createMailSandbox();
    const parseMail = sandboxedMailParser(mailSandbox, log);
    const parseRawMail = sandboxedRawMailParser(mailSandbox, log);
    // Each provider's adapter, chosen here by the account's provider: the one place a next one is added.
    const graphOf = (row: IntegrationRow) => graphClient(config, accounts.microsoftAccess(row));
    const mailSourceOf: MailSourceOf = (row) => {
      if (row.provider === 'imap')
        return imapSource(serverAccountOf(row, cipher), parseRawMail, {
          windowDays: MAIL_WINDOW_DAYS,
          allowPrivate: config.MAIL_SERVERS_ALLOW_PRIVATE,
        });
      if (row.provider === 'microsoft') return graphMailSource(graphOf(row), parseRawMail);
      return gmailSource(gmailOf(accounts.authorised(row), config.GOOGLE_API_ROOT_URL), parseMail);
    };
    const calendarSourceOf: CalendarSourceOf = (row) => {
      if (row.provider === 'caldav') {
        const account = calendarServerAccountOf(row, cipher);
        return reachableOnly(caldavSource(account), account.url, config.MAIL_SERVERS_ALLOW_PRIVATE);
      }
      if (row.provider === 'microsoft') return graphCalendarSource(graphOf(row));
      return googleCalendarSource(calendarOf(accounts.authorised(row), config.GOOGLE_API_ROOT_URL));
    };
    const changed = (row: IntegrationRow) =>
      deps.uow.run(async (tx, emit) => {
        const request = await accountRows.requestSync(tx, row.id);
        if (request) await emit('accounts.sync', { integrationId: row.id, request });
      });
    const graphStateOf = graphClientState(deriveKey(config.INTERNAL_SECRET, 'graph-client-state'));
    const gmailKeyOf = createBlindIndex(config.DATA_ENCRYPTION_KEY, 'gmail-push');
    const push = createPush({
      repo: accountRows,
      channels: pushChannels(),
      watched: async (row) =>
        row.provider === 'imap' && (await deps.redis.exists(imapWatchKey(config.REDIS_PREFIX, row.id))) === 1,
      changed,
      gmailToken: config.GMAIL_PUSH_TOKEN,
      gmailKeyOf,
      graphClientStateOf: graphStateOf,
      log,
    });
    /** The providers that push on this server: Gmail with a Pub/Sub topic, Graph with an https address. */
    function pushChannels(): Record<string, PushChannel> {
      const channels: Record<string, PushChannel> = {};
      if (config.GMAIL_PUSH_TOPIC) {
        requireSettings(config, ['GMAIL_PUSH_TOKEN']);
        channels['google:email'] = gmailWatch(
          (row) => gmailOf(accounts.authorised(row), config.GOOGLE_API_ROOT_URL),
          config.GMAIL_PUSH_TOPIC,
          gmailKeyOf,
        );
      }
      const notificationUrl =
        config.MICROSOFT_NOTIFICATION_URL ??
        (appUrl.startsWith('https:') ? `${appUrl}/api/push/microsoft` : undefined);
      if (notificationUrl) {
        const graph = graphSubscriptions(graphOf, notificationUrl, graphStateOf);
        channels['microsoft:email'] = graph;
        channels['microsoft:calendar'] = graph;
      }
      return channels;
    }
    const integrations = createIntegrations({
      repo: accountRows,
      messages,
      uow: deps.uow,
      cipher,
      // The state's key is derived from the internal secret for this one purpose.
      states: createStateStore(oauthStatesRepository(db), deriveKey(config.INTERNAL_SECRET, 'oauth-state')),
      google: settings,
      accounts,
      followUps,
      providers: createProviders(settings),
      mailSourceOf,
      calendarSourceOf,
      syncIntervalMs: config.SYNC_INTERVAL_MS,
      stopPush: push.stop,
      log,
    });
    // Every call to a provider is measured where it leaves the process, whichever client makes it.
    const stopMeasuring = observeProviderCalls(deps.metrics, {
      google: [
        config.GOOGLE_API_ROOT_URL,
        config.GOOGLE_TOKEN_URL,
        'https://gmail.googleapis.com',
        'https://oauth2.googleapis.com',
        'https://openidconnect.googleapis.com',
      ],
      microsoft: [config.MICROSOFT_AUTH_URL, config.MICROSOFT_GRAPH_URL],
      slack: [config.SLACK_API_URL],
      notion: [config.NOTION_API_URL],
    });
    const serverAccounts = createServerAccounts({
      repo: accountRows,
      uow: deps.uow,
      cipher,
      present: accounts.present,
      allowPrivate: config.MAIL_SERVERS_ALLOW_PRIVATE,
      syncIntervalMs: config.SYNC_INTERVAL_MS,
    });
    const assist = createAssist({ messages, events, cipher, accounts, calendarSourceOf, llm, log });
    const sync = createAccountSync({
      repo: accountRows,
      events,
      cipher,
      accounts,
      mail: createMailSync({
        repo: messages,
        cipher,
        log,
        llm,
        followUps,
        contacts,
      }),
      mailSourceOf,
      calendarSourceOf,
      workspace,
      push,
      intervalMs: config.SYNC_INTERVAL_MS,
      pushedIntervalMs: config.PUSH_SAFETY_INTERVAL_MS,
      log,
    });
    // Push for mail by its servers: IDLE on up to IMAP_IDLE_MAX inboxes per worker process.
    const imapWatch = createImapWatch({
      accounts: () => accountRows.watchable('imap'),
      open: (row) => openInbox(row, cipher, config.MAIL_SERVERS_ALLOW_PRIVATE),
      changed,
      redis: deps.redis,
      prefix: config.REDIS_PREFIX,
      max: config.IMAP_IDLE_MAX,
      everyMs: config.IMAP_WATCH_ROUND_MS,
      log,
    });
    return {
      watchers: [imapWatch],
      routes: [
        integrationsRoutes(integrations, serverAccounts, appUrl),
        ...assistRoutes(integrations, assist, workspace, followUps, contacts),
        pushRoutes(push),
      ],
      jobs: [
        accountSyncJob(sync),
        legacyMailSyncJob(sync),
        refreshJob(sync),
        // Tokens are revoked at the providers before the rows go.
        userDeletionJob('integrations', {
          uow: deps.uow,
          schema: 'integrations',
          before: (userId) => integrations.removeAll(userId),
        }),
      ],
      reconcilers: sync.reconcilers,
      close: async () => {
        stopMeasuring();
        mailSandbox.close();
      },
    };
  },
};
