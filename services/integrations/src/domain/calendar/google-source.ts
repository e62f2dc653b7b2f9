/** Google Calendar's API as a CalendarSource (see source.ts): the primary calendar. */
import type { calendar_v3 } from 'googleapis';
import type { CalendarEvent } from '@haven/contracts/calendar';
import type { CalendarSource } from './source';

type GoogleEvent = calendar_v3.Schema$Event;

const RESPONSES = new Set(['needsAction', 'declined', 'tentative', 'accepted']);

/** The user's own attendee entry (Google marks it `self`). */
const selfOf = (event: GoogleEvent) => event.attendees?.find((a) => a.self);

/** An event as the API answers it, with the user's own response. */
function presentEvent(event: GoogleEvent): CalendarEvent {
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

export function googleCalendarSource(calendar: calendar_v3.Calendar): CalendarSource {
  return {
    async invitations({ days, max }) {
      const now = Date.now();
      const events: GoogleEvent[] = [];
      let pageToken: string | undefined;
      do {
        const page = await calendar.events.list({
          calendarId: 'primary',
          timeMin: new Date(now).toISOString(),
          timeMax: new Date(now + days * 86_400_000).toISOString(),
          singleEvents: true,
          orderBy: 'startTime',
          maxResults: 250,
          pageToken,
        });
        events.push(...(page.data.items ?? []));
        pageToken = page.data.nextPageToken ?? undefined;
      } while (pageToken && events.length < max);
      return events.filter((e) => e.id && e.status !== 'cancelled' && selfOf(e)).map(presentEvent);
    },

    async create(event) {
      const at = (m: { date: string; time: string }) => ({
        dateTime: `${m.date}T${m.time}:00`,
        timeZone: event.timeZone ?? 'UTC',
      });
      const { data } = await calendar.events.insert({
        calendarId: 'primary',
        requestBody: {
          summary: event.title,
          description: event.description,
          location: event.location,
          start: at(event.start),
          end: at(event.end),
          reminders: event.reminder
            ? { useDefault: false, overrides: [{ method: 'popup', minutes: event.reminder }] }
            : { useDefault: false, overrides: [] },
        },
      });
      return {
        id: data.id ?? '',
        summary: data.summary ?? event.title,
        location: data.location ?? null,
        start: { dateTime: data.start?.dateTime ?? undefined, timeZone: data.start?.timeZone ?? undefined },
        end: { dateTime: data.end?.dateTime ?? undefined, timeZone: data.end?.timeZone ?? undefined },
        htmlLink: data.htmlLink ?? undefined,
      };
    },

    async respond(eventId, response) {
      const { data: event } = await calendar.events.get({ calendarId: 'primary', eventId });
      if (!selfOf(event)) return null;
      const attendees = (event.attendees ?? []).map((a) => (a.self ? { ...a, responseStatus: response } : a));
      const { data } = await calendar.events.patch({
        calendarId: 'primary',
        eventId,
        sendUpdates: 'all',
        requestBody: { attendees },
      });
      return presentEvent(data);
    },
  };
}
