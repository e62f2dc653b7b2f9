import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { IsoDateTime, LocalDate, queryInt } from './common';
import { CalendarAnswer } from './calendar';
import { DigestQuery, EmailDigest, WaitingAnswer } from './mail';
import { Connections, NotionAnswer, NotionToolQuery, SlackAnswer } from './workspace';
import { UserPreferences } from './preferences';
import { RangeQuery, Thought } from './thoughts';
import { Insight, InsightQuery } from './insights';

/*
 * Service-to-service reads under `/internal/...`. Every call carries the internal token
 * (`x-internal-token`, see routes.ts) naming the calling service, the target and the user, never a
 * parameter; each route lists the services it accepts (`callers`), and refuses others with 403.
 * Only the 200 answer is declared: any other status makes the client throw an HttpError.
 */

/**
 * GET /internal/thoughts/search?q=&limit=&match=&start=&end=: the assistant's lookup through the
 * search index. `match=phrase` is the overlay's rule (the text as a substring); `match=words` finds
 * thoughts holding any of the words (question words and other stop words left out), ranked by BM25,
 * merged with search by meaning when a model is configured. `start`/`end` keep the user's days in
 * [start, end]; with them `q` may be empty (the period's thoughts, oldest first).
 */
export const InternalSearchQuery = z
  .object({
    q: z.string().trim().max(200).default(''),
    limit: queryInt(1, 100).default(20),
    match: z.enum(['phrase', 'words']).default('phrase'),
    start: LocalDate.optional(),
    end: LocalDate.optional(),
  })
  .refine((v) => v.q.length > 0 || (v.start !== undefined && v.end !== undefined), {
    error: 'Search text is required',
    path: ['q'],
  });
export type InternalSearchQuery = z.infer<typeof InternalSearchQuery>;

/** How many thoughts a period has, and when the latest of them was written or edited. */
export const PeriodStats = z.object({
  count: z.number().int().min(0),
  lastChangedAt: IsoDateTime.nullable(),
});
export type PeriodStats = z.infer<typeof PeriodStats>;

/** Internal routes of the thoughts service (used by the assistant and insights workers). */
export const thoughtsInternalContract = defineContract({
  range: {
    method: 'GET',
    path: '/internal/thoughts/range',
    query: RangeQuery,
    responses: { 200: z.array(Thought) },
    callers: ['insights', 'assistant', 'portability'],
    summary: 'Thoughts with localDate in [start, end], oldest first.',
  },
  stats: {
    method: 'GET',
    path: '/internal/thoughts/stats',
    query: RangeQuery,
    responses: { 200: PeriodStats },
    callers: ['insights', 'portability'],
    summary:
      'Count and latest change of the thoughts in [start, end]: tells insights whether a stored one is current.',
  },
  search: {
    method: 'GET',
    path: '/internal/thoughts/search',
    query: InternalSearchQuery,
    responses: { 200: z.array(Thought) },
    callers: ['insights', 'assistant'],
    summary: 'Best matches first, at most `limit` (see InternalSearchQuery).',
  },
});

/** Internal routes of the auth service. */
export const authInternalContract = defineContract({
  preferences: {
    method: 'GET',
    path: '/internal/preferences',
    responses: { 200: UserPreferences },
    callers: ['insights', 'assistant', 'integrations'],
    summary: 'The user preferences, defaults when never set.',
  },
});

/** Addresses a reply's draft names (in the body: an address is the user's data, never in a URL). */
export const KnownContactsQuery = z.object({
  addresses: z.array(z.string().trim().toLowerCase().min(3).max(320)).min(1).max(20),
});
/** Those of the addresses the user has written to (people they know), in the order asked. */
export const KnownContactsAnswer = z.object({ known: z.array(z.string()) });

/** Internal routes of the integrations service (used by the assistant's tools). */
export const integrationsInternalContract = defineContract({
  digest: {
    method: 'GET',
    path: '/internal/assist/digest',
    query: DigestQuery,
    responses: { 200: EmailDigest },
    callers: ['assistant'],
    summary: 'Same answer as GET /api/assist/emails.',
  },
  waiting: {
    method: 'GET',
    path: '/internal/assist/waiting',
    responses: { 200: WaitingAnswer },
    callers: ['assistant'],
    summary: 'Same answer as GET /api/assist/waiting.',
  },
  calendarEvents: {
    method: 'GET',
    path: '/internal/calendar/events',
    responses: { 200: CalendarAnswer },
    callers: ['assistant'],
    summary: 'Same answer as GET /api/assist/calendar.',
  },
  connections: {
    method: 'GET',
    path: '/internal/integrations/connections',
    responses: { 200: Connections },
    callers: ['assistant'],
    summary: 'Which kinds of account the user has connected.',
  },
  slackMentions: {
    method: 'GET',
    path: '/internal/slack/mentions',
    responses: { 200: SlackAnswer },
    callers: ['assistant'],
    summary:
      'Recent Slack mentions and direct messages (text limited to the first line unless full content is on).',
  },
  notionSearch: {
    method: 'GET',
    path: '/internal/notion/search',
    query: NotionToolQuery,
    responses: { 200: NotionAnswer, 400: ErrorBody },
    callers: ['assistant'],
    summary: 'Notion search by text: titles and a short excerpt of the best pages.',
  },
  knownContacts: {
    method: 'POST',
    path: '/internal/mail/contacts/known',
    body: KnownContactsQuery,
    responses: { 200: KnownContactsAnswer, 400: ErrorBody },
    callers: ['assistant'],
    summary: 'Which of these addresses the user has written to from a connected mail account.',
  },
});

/** What the insights service has for a period: the insight, a generation under way, or too few thoughts. */
export const InternalInsightAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ready'), insight: Insight }),
  z.object({ status: z.literal('pending') }),
  z.object({ status: z.literal('empty') }),
]);
export type InternalInsightAnswer = z.infer<typeof InternalInsightAnswer>;

/** Internal routes of the insights service (used by the assistant's weekly review). */
export const insightsInternalContract = defineContract({
  period: {
    method: 'GET',
    path: '/internal/insights/period',
    query: InsightQuery,
    responses: { 200: InternalInsightAnswer },
    callers: ['assistant'],
    summary:
      'Same as GET /api/insights/daily (a generation is queued when none is current), with 404 as `empty`.',
  },
});
