import { z } from 'zod';
import { defineContract } from './contract';
import { queryInt } from './common';
import { EmailDigest, CalendarAnswer } from './integrations';
import { UserPreferences } from './preferences';
import { RangeQuery, Thought } from './thoughts';

/*
 * Service-to-service reads under `/internal/...`. Every call carries the internal token
 * (`x-internal-token`, see routes.ts) and the user is the one named in that token, never a parameter.
 * Only the 200 answer is declared: any other status makes the client throw an HttpError.
 */

/** GET /internal/thoughts/search?q=&limit=: case-insensitive match on content or any tag. */
export const InternalSearchQuery = z.object({
  q: z.string().trim().min(1, { error: 'Search text is required' }).max(200),
  limit: queryInt(1, 100).default(20),
});
export type InternalSearchQuery = z.infer<typeof InternalSearchQuery>;

/** Internal routes of the thoughts service (used by the assistant and insights workers). */
export const thoughtsInternalContract = defineContract({
  range: {
    method: 'GET',
    path: '/internal/thoughts/range',
    query: RangeQuery,
    responses: { 200: z.array(Thought) },
    summary: 'Thoughts with localDate in [start, end], oldest first.',
  },
  search: {
    method: 'GET',
    path: '/internal/thoughts/search',
    query: InternalSearchQuery,
    responses: { 200: z.array(Thought) },
    summary: 'Best matches first, at most `limit`.',
  },
});

/** Internal routes of the auth service. */
export const authInternalContract = defineContract({
  preferences: {
    method: 'GET',
    path: '/internal/preferences',
    responses: { 200: UserPreferences },
    summary: 'The user preferences, defaults when never set.',
  },
});

/** Internal routes of the integrations service (used by the assistant's tools). */
export const integrationsInternalContract = defineContract({
  digest: {
    method: 'GET',
    path: '/internal/assist/digest',
    responses: { 200: EmailDigest },
    summary: 'Same answer as GET /api/assist/emails.',
  },
  calendarEvents: {
    method: 'GET',
    path: '/internal/calendar/events',
    responses: { 200: CalendarAnswer },
    summary: 'Same answer as GET /api/assist/calendar.',
  },
});
