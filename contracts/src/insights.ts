import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { EventMoment } from './calendar';
import { CacheBuster, Id, IsoDateTime, LocalDate, Ok } from './common';
import { MAX_CONTENT_LENGTH } from './thoughts';

/** Most thoughts one findings call reads (a busy day of the timeline). */
export const MAX_FINDINGS_THOUGHTS = 100;

/** The period an insight covers. Weeks start on Monday in the insights views. */
export const InsightRange = z.enum(['day', 'week', 'month']);
export type InsightRange = z.infer<typeof InsightRange>;

/** GET /api/insights/daily and DELETE /api/insights/delete: any day inside the wanted period. */
export const InsightQuery = z.object({
  date: LocalDate,
  range: InsightRange.default('day'),
  t: CacheBuster,
});
export type InsightQuery = z.infer<typeof InsightQuery>;

/** What an insight cites: a thought id, or a day (`yyyy-MM-dd`) when it speaks of a whole day. */
export const Reference = z.union([Id, LocalDate]);
export type Reference = z.infer<typeof Reference>;

/** One theme or suggestion and the thoughts it came from. */
export const InsightItem = z.object({
  title: z.string(),
  description: z.string(),
  references: z.array(Reference),
});
export type InsightItem = z.infer<typeof InsightItem>;

/** A recurring theme of the period. */
export const Theme = InsightItem;
export type Theme = InsightItem;

/** What a suggestion's action dialog opens with, taken from the thought it came from. */
export const SuggestionPrefill = z.object({
  /** An event: the date and time the thought names (default 18:00 to 19:00 on a date without one). */
  calendar: z.object({ title: z.string(), start: EventMoment, end: EventMoment }).optional(),
  /**
   * An e-mail: a subject and a first draft of the body; `to` only when the thought gives an address,
   * and the recipient's `name` when one was named (for the greeting and the labels, never for To).
   */
  email: z
    .object({ to: z.string().optional(), name: z.string().optional(), subject: z.string(), body: z.string() })
    .optional(),
});
export type SuggestionPrefill = z.infer<typeof SuggestionPrefill>;

/** A suggestion; the SPA picks its action button (calendar / e-mail) from the words in it. */
export const Suggestion = InsightItem.extend({ prefill: SuggestionPrefill.optional() });
export type Suggestion = z.infer<typeof Suggestion>;

/** One day of a week or month: the mood of its thoughts (AFINN sentiment, −1..1; null with none) and how many. */
export const MoodPoint = z.object({
  date: LocalDate,
  score: z.number().min(-1).max(1).nullable(),
  count: z.number().int().min(0),
});
export type MoodPoint = z.infer<typeof MoodPoint>;

/** Lifecycle of a stored insight. */
export const InsightStatus = z.enum(['ready', 'failed']);
export type InsightStatus = z.infer<typeof InsightStatus>;

/** Which engine wrote it: the LLM, or the local extractive one used when no model is configured. */
export const InsightEngine = z.enum(['ai', 'basic']);
export type InsightEngine = z.infer<typeof InsightEngine>;

/** A generated insight for one (user, range, period). */
export const Insight = z.object({
  id: Id,
  range: InsightRange,
  /** First day of the period (a Monday for weeks, the 1st for months). */
  periodStart: LocalDate,
  /** Last day of the period, inclusive. */
  periodEnd: LocalDate,
  summary: z.string(),
  summaryReferences: z.array(Reference),
  themes: z.array(Theme),
  suggestions: z.array(Suggestion),
  /** Week and month insights: one point per day of the period. */
  mood: z.array(MoodPoint).optional(),
  engine: InsightEngine,
  /** `failed` after every attempt failed: the SPA offers a retry (delete, then get). */
  status: InsightStatus,
  generatedAt: IsoDateTime,
});
export type Insight = z.infer<typeof Insight>;

/** 202 answer while an insights.generate job runs; the SPA polls again. */
export const InsightPending = z.object({ status: z.literal('pending') });
export type InsightPending = z.infer<typeof InsightPending>;

/** A thought to read for findings: what the SPA already holds of it. */
export const FindingsSource = z.object({
  id: Id,
  content: z.string().max(MAX_CONTENT_LENGTH),
  localDate: LocalDate,
});

/** POST /api/insights/findings: the thoughts of one list (a day of the timeline). */
export const FindingsBody = z.object({ thoughts: z.array(FindingsSource).max(MAX_FINDINGS_THOUGHTS) });
export type FindingsBody = z.infer<typeof FindingsBody>;

/**
 * What the local engine found a thought means to do, ready for the action dialogs: an event (a date
 * and time it names) and/or an e-mail (to the person it names). At most one of each per thought.
 */
export const ThoughtFinding = z.object({
  thoughtId: Id,
  /** The words of the intention ("Meeting with Tom"), the event's title. */
  title: z.string(),
  prefill: SuggestionPrefill,
});
export type ThoughtFinding = z.infer<typeof ThoughtFinding>;

export const FindingsAnswer = z.object({ findings: z.array(ThoughtFinding) });
export type FindingsAnswer = z.infer<typeof FindingsAnswer>;

/** Public routes of the insights service. */
export const insightsContract = defineContract({
  get: {
    method: 'GET',
    path: '/api/insights/daily',
    query: InsightQuery,
    responses: { 200: Insight, 202: InsightPending, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
    summary:
      'The insight of the period containing `date`. 202 while it is being generated (a job is queued if none is), ' +
      '404 when the period has too few thoughts.',
  },
  remove: {
    method: 'DELETE',
    path: '/api/insights/delete',
    query: InsightQuery,
    responses: { 200: Ok, 400: ErrorBody, 401: ErrorBody },
    summary: 'Forgets the stored insight of the period so the next get regenerates it; idempotent.',
  },
  findings: {
    method: 'POST',
    path: '/api/insights/findings',
    body: FindingsBody,
    responses: { 200: FindingsAnswer, 400: ErrorBody, 401: ErrorBody },
    summary:
      "The local engine's findings in the given thoughts (a date and time to put in the calendar, a person to " +
      'e-mail), computed on request and not stored; the thought cards show them as actions.',
  },
});
