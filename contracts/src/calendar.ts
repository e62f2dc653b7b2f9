import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';
import { IsoDateTime, LocalDate } from './common';

/* Calendar invitations and event creation (integrations service). */

/** A start or end time: `dateTime` for timed events, `date` for all-day ones. */
export const EventTime = z.object({
  dateTime: IsoDateTime.optional(),
  date: LocalDate.optional(),
  timeZone: z.string().optional(),
});
export type EventTime = z.infer<typeof EventTime>;

/** A calendar event (an invitation when the user's responseStatus is needsAction). */
export const CalendarEvent = z.object({
  id: z.string(),
  summary: z.string(),
  location: z.string().nullish(),
  start: EventTime,
  end: EventTime.optional(),
  organizer: z.object({ displayName: z.string().optional(), email: z.string().optional() }).optional(),
  responseStatus: z.enum(['needsAction', 'declined', 'tentative', 'accepted']).optional(),
  htmlLink: z.string().optional(),
});
export type CalendarEvent = z.infer<typeof CalendarEvent>;

/** GET /api/assist/calendar. */
export const CalendarAnswer = z.object({ connected: z.boolean(), events: z.array(CalendarEvent) });
export type CalendarAnswer = z.infer<typeof CalendarAnswer>;

/** Reminder choices in minutes before the event (0 = none). */
export const ReminderMinutes = z.union([
  z.literal(0),
  z.literal(10),
  z.literal(30),
  z.literal(60),
  z.literal(1440),
]);
export type ReminderMinutes = z.infer<typeof ReminderMinutes>;

/** A wall-clock moment as the event form picks it. */
export const EventMoment = z.object({
  date: LocalDate,
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'Times must use the HH:mm format' }),
});
export type EventMoment = z.infer<typeof EventMoment>;

/** POST /api/calendar/events: an event the user confirmed (default today 18:00 to 19:00). */
export const CalendarEventDraft = z
  .object({
    title: z
      .string()
      .trim()
      .min(1, { error: 'Please enter a title for your event' })
      .max(200, { error: 'Title must be at most 200 characters' }),
    description: z.string().max(5000).optional(),
    start: EventMoment,
    end: EventMoment,
    location: z.string().trim().max(500).optional(),
    reminder: ReminderMinutes.default(30),
    /** IANA zone the wall-clock times are in, e.g. `Europe/Paris`; the account's zone when absent. */
    timeZone: z.string().max(64).optional(),
  })
  .refine((e) => `${e.start.date}T${e.start.time}` < `${e.end.date}T${e.end.time}`, {
    error: 'The event must end after it starts',
    path: ['end'],
  });
export type CalendarEventDraft = z.infer<typeof CalendarEventDraft>;

/** POST /api/calendar/events/:id/rsvp: the user's answer to an invitation. */
export const RsvpBody = z.object({
  response: z.enum(['accepted', 'declined', 'tentative'], {
    error: 'response must be accepted, declined or tentative',
  }),
});
export type RsvpBody = z.infer<typeof RsvpBody>;

/** Path params of `/api/calendar/events/:id` (the calendar's event id). */
export const EventIdParams = z.object({
  // Google's ids, and Graph's base64url ones (with `=`).
  id: z.string().regex(/^[A-Za-z0-9_=-]{1,1024}$/, { error: 'Invalid event id' }),
});
export type EventIdParams = z.infer<typeof EventIdParams>;

/**
 * Calendar routes of the integrations service. A 409 carries the code `not_connected` (no calendar)
 * or `reconnect_required` (the calendar must be connected again).
 */
export const calendarContract = defineContract({
  calendar: {
    method: 'GET',
    path: '/api/assist/calendar',
    responses: { 200: CalendarAnswer, 401: ErrorBody, 502: ErrorBody },
    summary: 'Upcoming invitations needing a response (cached); `connected: false` when no calendar.',
  },
  rsvp: {
    method: 'POST',
    path: '/api/calendar/events/:id/rsvp',
    params: EventIdParams,
    body: RsvpBody,
    responses: {
      200: CalendarEvent,
      400: ErrorBody,
      401: ErrorBody,
      404: ErrorBody,
      409: ErrorBody,
      502: ErrorBody,
    },
    summary: 'Answers an invitation for real (the organiser is told); 404 unless it is one of yours.',
  },
  createEvent: {
    method: 'POST',
    path: '/api/calendar/events',
    body: CalendarEventDraft,
    responses: { 201: CalendarEvent, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 502: ErrorBody },
  },
});
