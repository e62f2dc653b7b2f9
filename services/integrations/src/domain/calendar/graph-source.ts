/**
 * A Microsoft 365 or Outlook.com calendar through Microsoft Graph, as a CalendarSource (see
 * source.ts): the user's default calendar, its times asked for in UTC.
 */
import type { Event, ResponseType as GraphResponse } from '@microsoft/microsoft-graph-types';
import type { CalendarEvent } from '@haven/contracts/calendar';
import { graphLink, graphNotFound, type GraphClient } from '../microsoft';
import type { CalendarSource } from './source';

/** Graph answers every time in this zone when asked (its wall-clock times carry no offset). */
const IN_UTC = 'outlook.timezone="UTC"';
const FIELDS =
  'id,subject,location,start,end,isAllDay,organizer,attendees,responseStatus,isOrganizer,isCancelled,webLink';

const RESPONSES: Partial<Record<GraphResponse, CalendarEvent['responseStatus']>> = {
  none: 'needsAction',
  notResponded: 'needsAction',
  tentativelyAccepted: 'tentative',
  accepted: 'accepted',
  declined: 'declined',
  organizer: 'accepted',
};

/** What Haven's answers are called at Graph. */
const ACTIONS = { accepted: 'accept', tentative: 'tentativelyAccept', declined: 'decline' } as const;

/** A Graph UTC wall-clock time (`2026-12-01T10:00:00.0000000`) as an instant. */
const instant = (dateTime: string) => new Date(`${dateTime.slice(0, 23)}Z`).toISOString();

function timeOf(event: Event, at: Event['start']) {
  if (!at?.dateTime) return {};
  // An all-day event is its dates: it starts and ends at midnight in every zone.
  if (event.isAllDay) return { date: at.dateTime.slice(0, 10) };
  return { dateTime: instant(at.dateTime), timeZone: 'UTC' };
}

/** An event as the API answers it, with the user's own response. */
function presentEvent(event: Event): CalendarEvent {
  const organizer = event.organizer?.emailAddress;
  return {
    id: event.id ?? '',
    summary: event.subject || '(No title)',
    location: event.location?.displayName || null,
    start: timeOf(event, event.start),
    end: event.end ? timeOf(event, event.end) : undefined,
    organizer: organizer
      ? { displayName: organizer.name ?? undefined, email: organizer.address ?? undefined }
      : undefined,
    responseStatus: event.responseStatus?.response ? RESPONSES[event.responseStatus.response] : undefined,
    htmlLink: event.webLink ?? undefined,
  };
}

/** Graph's answer when the event is the user's own meeting: nothing to respond to. */
const ownMeeting = (err: unknown) => (err as { statusCode?: number }).statusCode === 400;

export function graphCalendarSource(client: GraphClient): CalendarSource {
  const read = (id: string) =>
    client
      .api(`/me/events/${encodeURIComponent(id)}`)
      .header('Prefer', IN_UTC)
      .select(FIELDS)
      .get() as Promise<Event>;

  return {
    async invitations({ days, max }) {
      const now = Date.now();
      const events: Event[] = [];
      let page = (await client
        .api('/me/calendarView')
        .header('Prefer', IN_UTC)
        .query({
          startDateTime: new Date(now).toISOString(),
          endDateTime: new Date(now + days * 86_400_000).toISOString(),
        })
        .select(FIELDS)
        .orderby('start/dateTime')
        .top(100)
        .get()) as { value?: Event[]; '@odata.nextLink'?: string };
      for (;;) {
        events.push(...(page.value ?? []));
        const next = page['@odata.nextLink'];
        if (!next || events.length >= max) break;
        page = await client.api(graphLink(next)).header('Prefer', IN_UTC).get();
      }
      // Meetings: the user was invited, or invited others (Google's `self` attendee, either way).
      return events
        .filter((e) => e.id && !e.isCancelled && (!e.isOrganizer || (e.attendees?.length ?? 0) > 0))
        .slice(0, max)
        .map(presentEvent);
    },

    async create(event) {
      const at = (m: { date: string; time: string }) => ({
        dateTime: `${m.date}T${m.time}:00`,
        timeZone: event.timeZone ?? 'UTC',
      });
      const created = (await client
        .api('/me/events')
        .header('Prefer', IN_UTC)
        .post({
          subject: event.title,
          body: { contentType: 'text', content: event.description ?? '' },
          start: at(event.start),
          end: at(event.end),
          ...(event.location ? { location: { displayName: event.location } } : {}),
          isReminderOn: Boolean(event.reminder),
          reminderMinutesBeforeStart: event.reminder ?? 0,
        } satisfies Event)) as Event;
      return presentEvent(created);
    },

    async respond(eventId, response) {
      try {
        await client
          .api(`/me/events/${encodeURIComponent(eventId)}/${ACTIONS[response]}`)
          .post({ sendResponse: true });
        return presentEvent(await read(eventId));
      } catch (err) {
        // Gone, or the user's own meeting (Graph refuses an organiser's response with 400).
        if (graphNotFound(err) || ownMeeting(err)) return null;
        throw err;
      }
    },
  };
}
