import type { calendar_v3 } from 'googleapis';
import type { CalendarEvent } from '@haven/contracts/calendar';
import type { FieldCipher } from '@haven/kit/crypto';
import type { CalendarEventsRepository } from '../../db/calendar-events.repository';
import { eventContext } from '../contexts';
export { eventContext };

/** How far ahead invitations are looked for. */
export const CALENDAR_WINDOW_DAYS = 60;

type GoogleEvent = calendar_v3.Schema$Event;

const RESPONSES = new Set(['needsAction', 'declined', 'tentative', 'accepted']);

/** The user's own attendee entry (Google marks it `self`). */
export const selfOf = (event: GoogleEvent) => event.attendees?.find((a) => a.self);

/** An event as the API answers it, with the user's own response. */
export function presentEvent(event: GoogleEvent): CalendarEvent {
  const time = (t: calendar_v3.Schema$EventDateTime | undefined) => ({
    dateTime: t?.dateTime ?? undefined,
    date: t?.date ?? undefined,
    timeZone: t?.timeZone ?? undefined,
  });
  const response = selfOf(event)?.responseStatus;
  return {
    id: event.id ?? '',
    summary: event.summary ?? '(No title)',
    location: event.location ?? null,
    start: time(event.start),
    end: event.end ? time(event.end) : undefined,
    organizer: event.organizer
      ? {
          displayName: event.organizer.displayName ?? undefined,
          email: event.organizer.email ?? undefined,
        }
      : undefined,
    responseStatus:
      response && RESPONSES.has(response) ? (response as CalendarEvent['responseStatus']) : undefined,
    htmlLink: event.htmlLink ?? undefined,
  };
}

const startOf = (event: GoogleEvent) =>
  new Date(event.start?.dateTime ?? (event.start?.date ? `${event.start.date}T00:00:00Z` : Date.now()));

/**
 * Refreshes the cache of upcoming events in which the user is an attendee (the next 60 days of the
 * primary calendar, recurring events expanded): what is gone from the calendar leaves the cache.
 */
export async function syncCalendar(
  deps: { repo: CalendarEventsRepository; cipher: FieldCipher },
  calendar: calendar_v3.Calendar,
  who: { integrationId: number; userId: number },
): Promise<void> {
  const now = Date.now();
  const events: GoogleEvent[] = [];
  let pageToken: string | undefined;
  do {
    const page = await calendar.events.list({
      calendarId: 'primary',
      timeMin: new Date(now).toISOString(),
      timeMax: new Date(now + CALENDAR_WINDOW_DAYS * 86_400_000).toISOString(),
      singleEvents: true,
      orderBy: 'startTime',
      maxResults: 250,
      pageToken,
    });
    events.push(...(page.data.items ?? []));
    pageToken = page.data.nextPageToken ?? undefined;
  } while (pageToken && events.length < 1000);

  const mine = events.filter((e) => e.id && e.status !== 'cancelled' && selfOf(e));
  await storeEvents(deps, who, mine);
  await deps.repo.keepOnly(
    who.integrationId,
    mine.map((e) => e.id!),
  );
}

/** Stores (or updates) events in the cache, encrypted. */
export async function storeEvents(
  { repo, cipher }: { repo: CalendarEventsRepository; cipher: FieldCipher },
  who: { integrationId: number; userId: number },
  events: GoogleEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => {
    const presented = presentEvent(e);
    return {
      integrationId: who.integrationId,
      userId: who.userId,
      eventId: presented.id,
      startsAt: startOf(e),
      responseStatus: presented.responseStatus ?? 'needsAction',
      dataEnc: cipher.encrypt(JSON.stringify(presented), eventContext(who.userId)),
    };
  });
  await repo.upsert(rows);
}
