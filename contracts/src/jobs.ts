import { z } from 'zod';
import { Id, LocalDate } from './common';
import { InsightRange } from './insights';

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

/** What the job kit stores beside the payload (`{ payload, meta }`), for log correlation. */
export const JobMeta = z.object({ requestId: z.string().max(128).optional() });
export type JobMeta = z.infer<typeof JobMeta>;

/** One queue: its name, payload schema and deterministic job id. */
export interface JobDefinition<Q extends string, S extends z.ZodType> {
  queue: Q;
  payload: S;
  /** Deterministic, contains no `:`. */
  jobId: (payload: z.infer<S>) => string;
}

function defineJob<const Q extends string, S extends z.ZodType>(
  queue: Q,
  payload: S,
  parts: (payload: z.infer<S>) => ReadonlyArray<string | number>,
): JobDefinition<Q, S> {
  const prefix = queue.replaceAll('.', '-');
  return { queue, payload, jobId: (p) => [prefix, ...parts(p)].join('.') };
}

/** The queues, keyed by name. */
export const JOBS = {
  /** auth: deliver one stored e-mail (verification code, reset link) over SMTP. */
  'mail.send': defineJob('mail.send', z.object({ mailId: OpaqueId }), (p) => [p.mailId]),

  /** thoughts → insights (and anyone else listening): a thought was created, edited or deleted. */
  'thought.changed': defineJob(
    'thought.changed',
    z.object({
      /** The outbox row id: one job per distinct change, and a relay replay is the same job. */
      eventId: OpaqueId,
      userId: Id,
      thoughtId: Id,
      /** The day the thought belongs to, so insights know which periods went stale. */
      localDate: LocalDate,
      change: z.enum(['created', 'updated', 'deleted']),
    }),
    (p) => [p.userId, p.thoughtId, p.eventId],
  ),

  /** thoughts: server-side speech-to-text of a voice thought's audio. */
  'thought.transcribe': defineJob('thought.transcribe', z.object({ userId: Id, thoughtId: Id }), (p) => [
    p.userId,
    p.thoughtId,
  ]),

  /** insights: generate (or regenerate) the insight of one period. */
  'insights.generate': defineJob(
    'insights.generate',
    z.object({ userId: Id, range: InsightRange, periodStart: LocalDate }),
    (p) => [p.userId, p.range, p.periodStart],
  ),

  /** assistant: write the assistant's reply to one user message. */
  'assistant.reply': defineJob(
    'assistant.reply',
    z.object({ userId: Id, conversationId: Id, messageId: Id }),
    (p) => [p.userId, p.conversationId, p.messageId],
  ),

  /** integrations: refresh the cached mail digest / calendar of one connected account (repeatable). */
  'mail.sync': defineJob('mail.sync', z.object({ userId: Id, integrationId: Id }), (p) => [
    p.userId,
    p.integrationId,
  ]),

  /** integrations: refresh an OAuth access token before it expires. */
  'integrations.token-refresh': defineJob(
    'integrations.token-refresh',
    z.object({ userId: Id, integrationId: Id }),
    (p) => [p.userId, p.integrationId],
  ),
} as const;

/** Name of a queue. */
export type QueueName = keyof typeof JOBS;

/** The payload type of a queue. */
export type JobPayload<Q extends QueueName> = z.infer<(typeof JOBS)[Q]['payload']>;

/** All queue names, e.g. for a registry that refuses to start with a queue left unhandled. */
export const QUEUE_NAMES = Object.keys(JOBS) as QueueName[];

/** The job id for a payload of queue `queue` (the payload is assumed already validated). */
export function jobIdFor<Q extends QueueName>(queue: Q, payload: JobPayload<Q>): string {
  // Each entry's jobId accepts its own payload; TypeScript cannot correlate the union here.
  const def = JOBS[queue] as unknown as { jobId: (p: JobPayload<Q>) => string };
  return def.jobId(payload);
}
