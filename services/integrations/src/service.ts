import { appUrl as publicUrl } from '@haven/kit/config';
import { deriveKey } from '@haven/kit/keys';
import { createLlm } from '@haven/kit/llm';
import { repoPath } from '@haven/kit/paths';
import { observeProviderCalls } from '@haven/kit/provider-calls';
import type { ServiceDefinition } from '@haven/kit/service';
import type { Config } from '@haven/kit/config';
import type { Metrics } from '@haven/kit/metrics';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import { userDeletionJob } from '@haven/kit/user-deletion';
import { requestSync, type IntegrationRow } from './db/integrations.repository';
import { outbox } from './db/schema';
import { createAccounts } from './domain/accounts';
import { createAssist } from './domain/assist';
import { createServerAccounts } from './domain/mail/server-accounts';
import { pushRoutes } from './routes/push.routes';
import { createIntegrations } from './domain/integrations';
import { createContacts } from './domain/mail/contacts';
import { createFollowUps } from './domain/mail/follow-ups';
import { createMailSandbox, sandboxedMailParser, sandboxedRawMailParser } from './domain/mail/mail-parser';
import { createMailSync } from './domain/mail/sync';
import { createStateStore } from './domain/oauth-state';
import { createProviders } from './domain/providers';
import { createAccountSync } from './domain/account-sync';
import { accountSyncJob, legacyMailSyncJob } from './jobs/account-sync.job';
import { refreshJob } from './jobs/refresh.job';
import { createWorkspace } from './domain/workspace/workspace';
import { assistRoutes, integrationsRoutes } from './routes/integrations.routes';
import { providerAdapters } from './domain/adapters';
import { imapWatchFor, providerPush } from './domain/push/wiring';

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
    const accounts = createAccounts({
      db,
      cipher,
      google: settings,
      microsoft: settings,
      log,
    });
    const followUps = createFollowUps({ db, cipher, accounts });
    const contacts = createContacts({ db, secret: config.DATA_ENCRYPTION_KEY });
    const workspace = createWorkspace({
      db,
      cipher,
      accounts,
      settings,
      log,
    });
    const mailSandbox = createMailSandbox();
    const parseMail = sandboxedMailParser(mailSandbox, log);
    const parseRawMail = sandboxedRawMailParser(mailSandbox, log);
    const { graphOf, gmailFor, mailSourceOf, calendarSourceOf } = providerAdapters({
      config,
      cipher,
      accounts,
      parseMail,
      parseRawMail,
    });
    const changed = syncAsker(deps.uow);
    const push = providerPush({
      config,
      appUrl,
      db,
      redis: deps.redis,
      gmailFor,
      graphOf,
      changed,
      log,
    });
    const integrations = createIntegrations({
      db,
      uow: deps.uow,
      cipher,
      // The state's key is derived from the internal secret for this one purpose.
      states: createStateStore(db, deriveKey(config.INTERNAL_SECRET, 'oauth-state')),
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
    const stopMeasuring = measureProviderCalls(deps.metrics, config);
    const serverAccounts = createServerAccounts({
      uow: deps.uow,
      cipher,
      present: accounts.present,
      allowPrivate: config.MAIL_SERVERS_ALLOW_PRIVATE,
      syncIntervalMs: config.SYNC_INTERVAL_MS,
    });
    const assist = createAssist({ db, cipher, accounts, calendarSourceOf, llm, log });
    const sync = createAccountSync({
      db,
      cipher,
      accounts,
      mail: createMailSync({
        db,
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
    const imapWatch = imapWatchFor({ config, db, cipher, redis: deps.redis, changed, log });
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

/** Every call to a provider is measured where it leaves the process, whichever client makes it. */
function measureProviderCalls(metrics: Metrics, config: Config) {
  return observeProviderCalls(metrics, {
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
}

/** Asks for an account's sync now, through the outbox: what a push or an IDLE notice does. */
function syncAsker(uow: UnitOfWork) {
  return (row: IntegrationRow) =>
    uow.run(async (tx, emit) => {
      const request = await requestSync(tx, row.id);
      if (request) await emit('accounts.sync', { integrationId: row.id, request });
    });
}
