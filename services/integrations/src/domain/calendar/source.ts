/**
 * A calendar as Haven uses it, whoever serves it: one adapter per kind of account (Google Calendar's
 * API in google-source.ts). Events are answered as the API presents them (`CalendarEvent`, with the
 * user's own response); the cache, the Assist screen and the assistant's actions use this only.
 */
import type { CalendarEvent, CalendarEventDraft, RsvpBody } from '@haven/contracts/calendar';
import type { IntegrationRow } from '../../db/integrations.repository';

export interface CalendarSource {
  /**
   * The upcoming events of the next `days` days (recurring ones expanded) in which the user is an
   * attendee, cancelled ones left out, soonest first, at most `max`.
   */
  invitations(window: { days: number; max: number }): Promise<CalendarEvent[]>;
  /** Creates an event in the user's calendar, with its reminder (none when the draft has none). */
  create(event: CalendarEventDraft): Promise<CalendarEvent>;
  /** Answers an invitation (the organiser is told); null when it is gone or not the user's to answer. */
  respond(eventId: string, response: RsvpBody['response']): Promise<CalendarEvent | null>;
}

/** The source of a stored calendar account, by its provider (chosen in service.ts). */
export type CalendarSourceOf = (account: IntegrationRow) => CalendarSource;
