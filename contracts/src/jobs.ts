import { z } from 'zod';
import { Id, IsoDateTime, LocalDate } from './common';
import { InsightRange } from './insights';
import { SERVICE_NAMES, type ServiceName } from './routes';

/**
 * Every BullMQ queue, its payload and its job id, defined once.
 *
 * Payloads carry ids only, never thought text, mail content or secrets: a handler reloads what it
 * needs by id (and skips when it is gone). Job ids are built from the payload so that adding the same
 * job twice (an outbox replay, a retried request) is one job. BullMQ forbids `:` in custom ids, so
 * ids are `<queue-with-dashes>.<part>.<part>` and string parts are restricted to `[A-Za-z0-9_-]`.
 * A job id only deduplicates while the earlier job is still kept, so workers remove finished jobs.
 */

/** An opaque id (outbox row id, mail id, uuid) that is safe inside a job id. */
export const OpaqueId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'Expected an id of letters, digits, _ or -' });
export type OpaqueId = z.infer<typeof OpaqueId>;

/** One account's sync, the `request`-th asked for it. */
const AccountSyncPayload = z.object({ integrationId: Id, request: z.number().int().positive() });

/** What the job kit stores beside the payload (`{ payload, meta }`), for log correlation. */
export const JobMeta = z.object({
  requestId: z.string().max(128).optional(),
  /** The W3C trace context to continue in the worker, when tracing is configured. */
  traceparent: z.string().max(128).optional(),
});
export type JobMeta = z.infer<typeof JobMeta>;

/**
 * How a queue's failed job is tried again: `attempts` in all (the first included), the first retry
 * after `firstDelay` units of JOB_BACKOFF_MS (1 s by default), each next one after twice the last.
 * A job that failed every attempt stays failed a week; the reconcilers revive work still overdue.
 */
export interface RetryPolicy {
  attempts: number;
  firstDelay: number;
}

/**
 * Eight attempts from one second: 1, 2, 4 … 64 s apart, about two minutes, long enough to ride out
 * a restart of PostgreSQL, Redis or another service.
 */
export const RIDE_OUT_RESTART: RetryPolicy = { attempts: 8, firstDelay: 1 };

/** A call to a model: six attempts, 5 to 80 s apart (about two and a half minutes), for a busy model. */
const MODEL_CALL: RetryPolicy = { attempts: 6, firstDelay: 5 };

/** An account's sync: three attempts from 5 s; the next due sync (minutes later) tries again anyway. */
const ACCOUNT_SYNC: RetryPolicy = { attempts: 3, firstDelay: 5 };

/** Work a person was promised (their data deleted): twelve attempts, 1 s to 17 min apart (about 34 min). */
const MUST_HAPPEN: RetryPolicy = { attempts: 12, firstDelay: 1 };

/** One queue: its name, the service whose workers consume it, its payload schema and deterministic job id. */
export interface QueueDefinition<Q extends string, S extends z.ZodType> {
  queue: Q;
  /** The one service that runs this queue's jobs; it refuses to start without exactly one handler. */
  consumer: ServiceName;
  payload: S;
  /** Deterministic, contains no `:`. */
  jobId: (payload: z.infer<S>) => string;
  retry: RetryPolicy;
}

function defineQueue<const Q extends string, S extends z.ZodType>(
  queue: Q,
  consumer: ServiceName,
  payload: S,
  parts: (payload: z.infer<S>) => ReadonlyArray<string | number>,
  retry: RetryPolicy = RIDE_OUT_RESTART,
): QueueDefinition<Q, S> {
  const prefix = queue.replaceAll('.', '-');
  return { queue, consumer, payload, jobId: (p) => [prefix, ...parts(p)].join('.'), retry };
}

/** The queue on which one service deletes all of a user's data (see the account deletion below). */
function userDeleteQueueOf<const S extends Exclude<ServiceName, 'auth'>>(service: S) {
  return defineQueue(
    `user.delete.${service}`,
    service,
    z.object({ userId: Id }),
    (p) => [p.userId],
    MUST_HAPPEN,
  );
}

/**
 * The queues, keyed by name. A queue is added here with the feature that produces and consumes it
 * (the insights, assistant and integrations issues add theirs).
 */
export const JOBS = {
  /**
   * auth: deliver one stored e-mail (verification code, reset link) over SMTP. Someone is waiting for
   * it: tried soon and often (ten attempts, 1 s to 256 s apart: about eight and a half minutes).
   */
  'mail.send': defineQueue('mail.send', 'auth', z.object({ mailId: OpaqueId }), (p) => [p.mailId], {
    attempts: 10,
    firstDelay: 1,
  }),

  /** thoughts → insights: a thought was created, edited or deleted; its periods go stale. */
  'thought.changed': defineQueue(
    'thought.changed',
    'insights',
    z.object({
      /** The outbox row id: one job per distinct change, and a relay replay is the same job. */
      eventId: OpaqueId,
      userId: Id,
      thoughtId: Id,
      /** The day the thought belongs to, so insights know which periods went stale. */
      localDate: LocalDate,
      change: z.enum(['created', 'updated', 'deleted']),
      /** When it changed, by the thoughts service's clock (events may be consumed later). */
      changedAt: IsoDateTime,
    }),
    (p) => [p.userId, p.thoughtId, p.eventId],
  ),

  /**
   * thoughts: server-side speech-to-text of a voice thought's audio. A model call: a busy or
   * rate-limited model is given longer (see MODEL_CALL); the entry keeps its audio meanwhile.
   */
  'thought.transcribe': defineQueue(
    'thought.transcribe',
    'thoughts',
    z.object({ userId: Id, thoughtId: Id }),
    (p) => [p.userId, p.thoughtId],
    MODEL_CALL,
  ),

  /**
   * thoughts: compute (or drop) the embedding of a thought that changed, for search by meaning. Queued
   * beside each `thought.changed` while an embeddings model is configured; one job per change.
   */
  'thought.embed': defineQueue(
    'thought.embed',
    'thoughts',
    z.object({
      /** The `thought.changed` event's id, so a relay replay is the same job. */
      eventId: OpaqueId,
      userId: Id,
      thoughtId: Id,
      change: z.enum(['created', 'updated', 'deleted']),
    }),
    (p) => [p.userId, p.thoughtId, p.eventId],
    MODEL_CALL,
  ),

  /**
   * insights: generate the insight of one period. `request` counts the generations asked for that
   * period, so a regeneration after a change is a new job, never deduplicated against a finished one.
   * A model call (see MODEL_CALL).
   */
  'insights.generate': defineQueue(
    'insights.generate',
    'insights',
    z.object({
      userId: Id,
      range: InsightRange,
      periodStart: LocalDate,
      request: z.number().int().positive(),
    }),
    (p) => [p.userId, p.range, p.periodStart, p.request],
    MODEL_CALL,
  ),

  /**
   * assistant: write the assistant's reply to one user message (exactly one per message). The user
   * watches 'Thinking...': four attempts (1, 2, 4 s), then the honest failure message rather than
   * minutes of waiting.
   */
  'assistant.reply': defineQueue(
    'assistant.reply',
    'assistant',
    z.object({ userId: Id, conversationId: Id, messageId: Id }),
    (p) => [p.userId, p.conversationId, p.messageId],
    { attempts: 4, firstDelay: 1 },
  ),

  /**
   * integrations: refresh one connected account's cache, whatever it holds (mail, calendar
   * invitations, Slack mentions, Notion pages). `request` counts the syncs asked for that account
   * (after connecting, then each time one is due), so each is a new job and a replay of the same
   * request is one. A provider that limits the rate says when to come back (`retryIn`, no attempt
   * used); other failures are tried three times from 5 s, and the next due sync tries again anyway.
   */
  'accounts.sync': defineQueue(
    'accounts.sync',
    'integrations',
    AccountSyncPayload,
    (p) => [p.integrationId, p.request],
    ACCOUNT_SYNC,
  ),

  /**
   * The same sync by its former name. Nothing queues it any more; it is still consumed for one
   * release, so jobs a replica of the release before queued (in Redis, or still in an outbox) during
   * a rolling update are run, not lost. Removed in the release after.
   */
  'mail.sync': defineQueue(
    'mail.sync',
    'integrations',
    AccountSyncPayload,
    (p) => [p.integrationId, p.request],
    ACCOUNT_SYNC,
  ),

  /**
   * integrations: refresh an account's access token before it expires (`expiresAt`, epoch seconds).
   * Eight attempts, 5 s to 5 min apart (about ten minutes).
   */
  'integrations.refresh': defineQueue(
    'integrations.refresh',
    'integrations',
    z.object({ integrationId: Id, expiresAt: z.number().int().nonnegative() }),
    (p) => [p.integrationId, p.expiresAt],
    { attempts: 8, firstDelay: 5 },
  ),

  /*
   * Account deletion: auth asks each service that holds user data to delete all of it (one queue per
   * service, so a service that is down deletes when it comes back), and each reports back; auth
   * deletes the account itself last. Deleting must happen (see MUST_HAPPEN).
   */
  'user.delete.thoughts': userDeleteQueueOf('thoughts'),
  'user.delete.insights': userDeleteQueueOf('insights'),
  'user.delete.assistant': userDeleteQueueOf('assistant'),
  'user.delete.integrations': userDeleteQueueOf('integrations'),
  'user.delete.portability': userDeleteQueueOf('portability'),
  /** A service deleted everything of the user: auth records it, and deletes the account after the last. */
  'user.deletion.report': defineQueue(
    'user.deletion.report',
    'auth',
    z.object({
      userId: Id,
      service: z.enum(SERVICE_NAMES).exclude(['auth']),
    }),
    (p) => [p.userId, p.service],
    MUST_HAPPEN,
  ),

  /*
   * portability: build an export zip, or import an uploaded one. `step` is the transfer's own count
   * of jobs (kept in its row): a long import runs as a chain of short steps, each queued behind
   * other users' work (fair across users), and a step lost or failed is replaced by the next number,
   * never re-added under an id BullMQ already holds.
   */
  'data.export': defineQueue(
    'data.export',
    'portability',
    z.object({ userId: Id, transferId: OpaqueId, step: z.number().int().positive() }),
    (p) => [p.userId, p.transferId, p.step],
  ),
  'data.import': defineQueue(
    'data.import',
    'portability',
    z.object({ userId: Id, transferId: OpaqueId, step: z.number().int().positive() }),
    (p) => [p.userId, p.transferId, p.step],
  ),
  /**
   * portability: a backup of the whole database (every service's schema) for the time the schedule
   * named (BACKUP_CRON) or the operator asked; one job, and one file, per time.
   */
  'backup.run': defineQueue(
    'backup.run',
    'portability',
    z.object({ at: IsoDateTime }),
    (p) => [Date.parse(p.at)],
    // A failed backup (the store unreachable) is tried for about two hours, then waits for the next.
    { attempts: 8, firstDelay: 60 },
  ),
} as const;

/** The services that hold a user's data besides auth, each deleting it from its own queue. */
export const USER_DATA_SERVICES = SERVICE_NAMES.filter(
  (name): name is Exclude<ServiceName, 'auth'> => name !== 'auth',
);
export type UserDataService = (typeof USER_DATA_SERVICES)[number];
export const userDeleteQueue = (service: UserDataService) => `user.delete.${service}` as const;

/** Name of a queue. */
export type QueueName = keyof typeof JOBS;

/** The payload type of a queue. */
export type JobPayload<Q extends QueueName> = z.infer<(typeof JOBS)[Q]['payload']>;

/** All queue names, e.g. for a registry that refuses to start with a queue left unhandled. */
export const QUEUE_NAMES = Object.keys(JOBS) as QueueName[];

/** The queues one service consumes. */
export function queuesConsumedBy(service: ServiceName): QueueName[] {
  return QUEUE_NAMES.filter((name) => JOBS[name].consumer === service);
}

/**
 * The one job-id formula: validates the payload and names its job. The outbox relay and the queue
 * registry both go through it, so an event and a direct add of the same work are one job.
 * Throws a ZodError for an invalid payload (a programming error, never the user's).
 */
export function jobFor<Q extends QueueName>(
  queue: Q,
  payload: unknown,
): { payload: JobPayload<Q>; jobId: string } {
  // Each entry's schema and jobId go together; TypeScript cannot correlate the union here.
  const def = JOBS[queue] as unknown as QueueDefinition<Q, z.ZodType<JobPayload<Q>>>;
  const parsed = def.payload.parse(payload);
  return { payload: parsed, jobId: def.jobId(parsed) };
}

/** The job id for a payload of queue `queue`. */
export function jobIdFor<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): string {
  return jobFor(queue, payload).jobId;
}
