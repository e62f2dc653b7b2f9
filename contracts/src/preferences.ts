import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { IsoDateTime } from './common';

/** The three privacy flags (all default true) as the API returns them. */
export const UserPreferences = z.object({
  /** Ask before the assistant's suggestion becomes a calendar event. */
  askBeforeCalendarEvents: z.boolean(),
  /** Ask before an e-mail draft is saved or sent. */
  askBeforeEmails: z.boolean(),
  /** Whether thought text may be used in suggestions (and sent to the LLM for them). */
  includeThoughtContent: z.boolean(),
  updatedAt: IsoDateTime,
});
export type UserPreferences = z.infer<typeof UserPreferences>;

/** PATCH body: one or more flags; unknown keys are refused so a typo is not a silent no-op. */
export const PreferencesPatch = z
  .strictObject({
    askBeforeCalendarEvents: z.boolean().optional(),
    askBeforeEmails: z.boolean().optional(),
    includeThoughtContent: z.boolean().optional(),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), {
    error: 'Provide at least one preference to change',
  });
export type PreferencesPatch = z.infer<typeof PreferencesPatch>;

/** Routes of the preferences part of the auth service. */
export const preferencesContract = defineContract({
  get: {
    method: 'GET',
    path: '/api/user-preferences',
    responses: { 200: UserPreferences, 401: ErrorBody },
    summary: 'The current flags; defaults (all true) when the user never changed one.',
  },
  update: {
    method: 'PATCH',
    path: '/api/user-preferences',
    body: PreferencesPatch,
    responses: { 200: UserPreferences, 400: ErrorBody, 401: ErrorBody },
  },
});
