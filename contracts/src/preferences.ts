import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { IsoDateTime } from './common';

/** The day of the weekly review: 0 = Sunday … 6 = Saturday (as `Date.getDay()`), or null for none. */
export const WeeklyReviewDay = z
  .number({ error: 'Weekly review day must be a number from 0 (Sunday) to 6 (Saturday)' })
  .int({ error: 'Weekly review day must be a number from 0 (Sunday) to 6 (Saturday)' })
  .min(0, { error: 'Weekly review day must be a number from 0 (Sunday) to 6 (Saturday)' })
  .max(6, { error: 'Weekly review day must be a number from 0 (Sunday) to 6 (Saturday)' })
  .nullable();
export type WeeklyReviewDay = z.infer<typeof WeeklyReviewDay>;

/** The three privacy flags (all default true) and the weekly review day (default Sunday) as the API returns them. */
export const UserPreferences = z.object({
  /** Ask before the assistant's suggestion becomes a calendar event. */
  askBeforeCalendarEvents: z.boolean(),
  /** Ask before an e-mail draft is saved or sent. */
  askBeforeEmails: z.boolean(),
  /** Whether thought text may be used in suggestions (and sent to the LLM for them). */
  includeThoughtContent: z.boolean(),
  /** On this day the home screen offers the week's review (a conversation walking through the weekly insight). */
  weeklyReviewDay: WeeklyReviewDay,
  updatedAt: IsoDateTime,
});
export type UserPreferences = z.infer<typeof UserPreferences>;

/** PATCH body: one or more preferences; unknown keys are refused so a typo is not a silent no-op. */
export const PreferencesPatch = z
  .strictObject({
    askBeforeCalendarEvents: z.boolean().optional(),
    askBeforeEmails: z.boolean().optional(),
    includeThoughtContent: z.boolean().optional(),
    weeklyReviewDay: WeeklyReviewDay.optional(),
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
