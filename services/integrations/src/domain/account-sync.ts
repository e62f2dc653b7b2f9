import type { JobPayload } from '@haven/contracts/jobs';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Logger } from '@haven/kit/logger';
import { providerBackoffMs, type JobContext } from '@haven/kit/queue';
import type { ReconcilerDefinition } from '@haven/kit/reconciler';
import type { Db } from '@haven/kit/db';
import { backOffSync, claimDueSyncs, googleExpiringBefore, markSynced } from '../db/integrations.repository';
import { accountContext, grantProblem, type Accounts } from './accounts';
import { syncCalendar } from './calendar/sync';
import type { CalendarSourceOf } from './calendar/source';
import type { MailSourceOf } from './mail/source';
import type { MailSync } from './mail/sync';
import type { Push } from './push/push';
import { workspaceProblem, type Workspace } from './workspace/workspace';

/** The longest a rate-limited account waits before its next try. */
const MAX_BACKOFF_MS = 3_600_000;
/** Up to this wait, a rate-limited sync job waits delayed in the queue rather than for the due round. */
const INLINE_RETRY_MAX_MS = 60_000;
/** Tokens expiring within this are refreshed ahead of time. */
const REFRESH_AHEAD_MS = 10 * 60_000;

/**
 * Gmail and Calendar say "slow down" with 429, or 403 with a rate-limit reason; the answer may carry
 * Retry-After. Null when the error is something else.
 */
export function rateLimitOf(err: unknown): { retryAfterMs?: number } | null {
  // Slack's client: a rate-limited call rejected with the server's Retry-After, in seconds.
  const slack = err as { code?: string; retryAfter?: number };
  if (slack.code === 'slack_webapi_rate_limited_error')
    return Number.isFinite(slack.retryAfter) ? { retryAfterMs: slack.retryAfter! * 1000 } : {};
  const e = err as {
    status?: number;
    /** Microsoft Graph's client: the answer's status. */
    statusCode?: number;
    response?: {
      status?: number;
      headers?: { get?: (name: string) => string | null } & Record<string, unknown>;
      data?: unknown;
    };
  };
  const status = e.status ?? e.response?.status ?? e.statusCode;
  // Notion's and Graph's clients keep the answer's headers on the error itself.
  const headers =
    e.response?.headers ?? (err as { headers?: NonNullable<typeof e.response>['headers'] }).headers;
  const reasons = JSON.stringify(e.response?.data ?? '');
  const limited =
    status === 429 ||
    (status === 403 && /rateLimitExceeded|userRateLimitExceeded|quotaExceeded/.test(reasons));
  if (!limited) return null;
  // A fetch Headers (perhaps of another fetch implementation than the global one), or a plain object.
  const header = typeof headers?.get === 'function' ? headers.get('retry-after') : headers?.['retry-after'];
  const seconds = header ? Number(header) : NaN;
  return Number.isFinite(seconds) ? { retryAfterMs: seconds * 1000 } : {};
}

export interface AccountSyncDeps {
  db: Db;
  cipher: FieldCipher;
  accounts: Accounts;
  mail: MailSync;
  /** A mail account's source, by its provider. */
  mailSourceOf: MailSourceOf;
  /** A calendar account's source, by its provider. */
  calendarSourceOf: CalendarSourceOf;
  workspace: Workspace;
  /** After a sync: the account's push kept up; whether its provider pushes its changes now. */
  push: Pick<Push, 'keep'>;
  intervalMs: number;
  /** How often an account whose changes are pushed is polled all the same. */
  pushedIntervalMs: number;
  log: Logger;
}

/**
 * The `accounts.sync` and `integrations.refresh` workers, and the rounds that queue them: a sync for
 * every connected account whose turn has come (autoSync on, no connection issue), and a refresh for
 * every token about to expire. Sync state lives in PostgreSQL, so a lost job is queued again.
 */
export function createAccountSync({
  db,
  cipher,
  accounts,
  mail,
  mailSourceOf,
  calendarSourceOf,
  workspace,
  push,
  intervalMs,
  pushedIntervalMs,
  log,
}: AccountSyncDeps) {
  async function sync(
    { integrationId, request }: JobPayload<'accounts.sync'>,
    { retryIn }: Pick<JobContext, 'retryIn'>,
  ): Promise<void> {
    const row = await accounts.byId(integrationId);
    // Gone, disconnected, waiting for a reconnect, or superseded by a newer request: nothing to do.
    if (!row || !accounts.isConnected(row) || row.syncRequest > request) return;
    const settings = accounts.settingsOf(row);
    const done: { syncCursor?: string; accountEnc?: string } = {};
    let address = row.accountEnc ? cipher.decrypt(row.accountEnc, accountContext(row.userId)) : '';
    try {
      if (row.type === 'email') {
        const mailbox = {
          integrationId: row.id,
          userId: row.userId,
          account: address,
          cursor: row.syncCursor,
          includeFullContent: settings.includeFullContent,
        };
        const source = mailSourceOf(row);
        try {
          done.syncCursor = await mail.sync(source, mailbox);
        } finally {
          await source.close?.();
        }
        if (mailbox.account) done.accountEnc = cipher.encrypt(mailbox.account, accountContext(row.userId));
        address = mailbox.account;
      } else if (row.type === 'calendar') {
        await syncCalendar({ db, cipher }, calendarSourceOf(row), {
          integrationId: row.id,
          userId: row.userId,
        });
      } else {
        await workspace.sync(row);
      }
    } catch (err) {
      const name = row.provider.charAt(0).toUpperCase() + row.provider.slice(1);
      const problem =
        row.type === 'email' || row.type === 'calendar'
          ? accounts.connectionProblem(row, err)
          : workspaceProblem(err, name);
      if (problem) {
        // The connection-issue box shows, and rounds skip the account until it is reconnected.
        await accounts.markError(row, problem);
        log.info({ integrationId }, 'grant lost; sync paused until reconnected');
        return;
      }
      const limited = rateLimitOf(err);
      if (!limited) throw err;
      // Per account, as the provider asks: about 1, 2, 4 … s with jitter, never before Retry-After.
      const backoffs = row.syncBackoffs + 1;
      const waitMs = providerBackoffMs(backoffs - 1, limited.retryAfterMs, MAX_BACKOFF_MS);
      await backOffSync(db, row.id, backoffs, new Date(Date.now() + waitMs));
      log.info({ integrationId, waitMs }, 'rate limited; sync retried later');
      // A short wait: this job runs again by itself. A long one: the due round queues it then.
      if (waitMs <= INLINE_RETRY_MAX_MS) await retryIn(waitMs);
      return;
    }
    const pushed = row.type !== 'email' && row.type !== 'calendar' ? false : await push.keep(row, address);
    const next = pushed ? Math.max(intervalMs, pushedIntervalMs) : intervalMs;
    await markSynced(db, row.id, done, new Date(Date.now() + next));
  }

  async function refresh({ integrationId, expiresAt }: JobPayload<'integrations.refresh'>): Promise<void> {
    const row = await accounts.byId(integrationId);
    if (!row?.refreshTokenEnc || row.provider !== 'google' || !accounts.isConnected(row)) return;
    // Refreshed since (by a call or an earlier job): nothing to do.
    if (Math.floor((row.expiresAt?.getTime() ?? 0) / 1000) !== expiresAt) return;
    try {
      const { credentials } = await accounts.authorised(row).refreshAccessToken();
      await accounts.storeTokens(row, credentials);
    } catch (err) {
      const problem = grantProblem(err);
      if (!problem) throw err;
      await accounts.markError(row, problem);
    }
  }

  const reconcilers: ReconcilerDefinition[] = [
    {
      name: 'integrations-sync-due',
      queue: 'accounts.sync',
      everyMs: Math.min(intervalMs, 60_000),
      // Claims each due account's next turn in the same statement that finds it, so two rounds
      // never queue one turn twice; a turn whose job is lost comes due again one interval later.
      findOverdue: () => claimDueSyncs(db, new Date(Date.now() + intervalMs)),
    } satisfies ReconcilerDefinition<'accounts.sync'>,
    {
      name: 'integrations-token-refresh',
      queue: 'integrations.refresh',
      everyMs: 5 * 60_000,
      async findOverdue() {
        const expiring = await googleExpiringBefore(db, new Date(Date.now() + REFRESH_AHEAD_MS));
        return expiring.map((r) => ({
          integrationId: r.integrationId,
          expiresAt: Math.floor((r.expiresAt?.getTime() ?? 0) / 1000),
        }));
      },
    } satisfies ReconcilerDefinition<'integrations.refresh'>,
  ] as ReconcilerDefinition[];

  return { sync, refresh, reconcilers };
}
export type AccountSync = ReturnType<typeof createAccountSync>;
