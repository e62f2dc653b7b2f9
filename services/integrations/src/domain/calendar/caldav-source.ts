/**
 * A CalDAV calendar as a CalendarSource (see source.ts): Fastmail, iCloud, Yahoo, Nextcloud, Radicale,
 * a company's server. tsdav speaks CalDAV; ical.js reads and writes iCalendar (RFC 5545), so an
 * answered invitation keeps everything else the organiser wrote.
 *
 * An event's id is its object's URL, base64url-encoded (what the routes take as an id). A recurring
 * event is one entry, at its next occurrence, and answering it answers the series. Whether the
 * organiser hears of an answer is the server's scheduling (RFC 6638: iCloud, Fastmail and Nextcloud
 * send the reply; a server without scheduling only stores it).
 */
import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { createDAVClient, type DAVCalendar, type DAVCalendarObject } from 'tsdav';
import type { CalendarEvent, CalendarEventDraft } from '@haven/contracts/calendar';
import type { CalendarSource } from './source';

export interface CalDavAccount {
  /** The server's address (discovery finds the calendars) or a calendar's own. */
  url: string;
  user: string;
  password: string;
  /** The user's address, as invitations name them (ATTENDEE;…:mailto:…). */
  address: string;
}

type Response = NonNullable<CalendarEvent['responseStatus']>;
const FROM_PARTSTAT: Record<string, Response> = {
  'NEEDS-ACTION': 'needsAction',
  ACCEPTED: 'accepted',
  DECLINED: 'declined',
  TENTATIVE: 'tentative',
};
const TO_PARTSTAT: Record<string, string> = {
  accepted: 'ACCEPTED',
  declined: 'DECLINED',
  tentative: 'TENTATIVE',
};

const idOf = (url: string) => Buffer.from(url, 'utf8').toString('base64url');
const urlOf = (id: string) => Buffer.from(id, 'base64url').toString('utf8');
const mailto = (value: unknown) =>
  String(value ?? '')
    .replace(/^mailto:/i, '')
    .toLowerCase();

/** The UTC instant of a wall-clock time in an IANA time zone. */
export function zonedToUtc(date: string, time: string, timeZone: string): Date {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const offsetAt = (instant: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .formatToParts(new Date(instant))
        .map((p) => [p.type, p.value]),
    );
    return Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!) - instant;
  };
  // Twice: the offset at the first guess may differ from the one at the answer (a DST change between).
  const first = wall - offsetAt(wall);
  return new Date(wall - offsetAt(first));
}

/** The attendee entry that is the user's, in a VEVENT. */
function selfIn(vevent: ICAL.Component, address: string): ICAL.Property | undefined {
  return vevent.getAllProperties('attendee').find((p) => mailto(p.getFirstValue()) === address);
}

/** A VEVENT as the API presents it, at `start` (its next occurrence, for a recurring one). */
function present(url: string, vevent: ICAL.Component, address: string, start?: ICAL.Time): CalendarEvent {
  const event = new ICAL.Event(vevent);
  const begins = start ?? event.startDate;
  const ends = start ? begins.clone() : event.endDate;
  if (start && event.duration) ends.addDuration(event.duration);
  const time = (t: ICAL.Time | null | undefined) =>
    !t ? undefined : t.isDate ? { date: t.toString() } : { dateTime: t.toJSDate().toISOString() };
  const organizer = vevent.getFirstProperty('organizer');
  const partstat = selfIn(vevent, address)?.getParameter('partstat');
  return {
    id: idOf(url),
    summary: event.summary || '(No title)',
    location: event.location || null,
    start: time(begins) ?? {},
    end: time(ends),
    organizer: organizer
      ? {
          displayName: (organizer.getParameter('cn') as string | undefined) ?? undefined,
          email: mailto(organizer.getFirstValue()) || undefined,
        }
      : undefined,
    responseStatus: FROM_PARTSTAT[String(partstat ?? 'NEEDS-ACTION').toUpperCase()] ?? 'needsAction',
  };
}

/** The first occurrence of `vevent` within [from, to), or null. */
function nextOccurrence(vevent: ICAL.Component, from: Date, to: Date): ICAL.Time | null {
  const event = new ICAL.Event(vevent);
  if (!event.isRecurring()) {
    const at = event.startDate.toJSDate();
    return at >= from && at < to ? event.startDate : null;
  }
  const iterator = event.iterator();
  for (let next = iterator.next(), n = 0; next && n < 5000; next = iterator.next(), n++) {
    const at = next.toJSDate();
    if (at >= to) return null;
    if (at >= from) return next;
  }
  return null;
}

/** The iCalendar text of a new event, with its reminder as a VALARM. */
function composeEvent(uid: string, draft: CalendarEventDraft): string {
  const zone = draft.timeZone ?? 'UTC';
  const utc = (m: { date: string; time: string }) =>
    ICAL.Time.fromJSDate(zonedToUtc(m.date, m.time, zone), true);
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('prodid', '-//Haven//Haven//EN');
  calendar.addPropertyWithValue('version', '2.0');
  const vevent = new ICAL.Component('vevent');
  vevent.addPropertyWithValue('uid', uid);
  vevent.addPropertyWithValue('dtstamp', ICAL.Time.now());
  vevent.addPropertyWithValue('dtstart', utc(draft.start));
  vevent.addPropertyWithValue('dtend', utc(draft.end));
  vevent.addPropertyWithValue('summary', draft.title);
  if (draft.description) vevent.addPropertyWithValue('description', draft.description);
  if (draft.location) vevent.addPropertyWithValue('location', draft.location);
  if (draft.reminder) {
    const alarm = new ICAL.Component('valarm');
    alarm.addPropertyWithValue('action', 'DISPLAY');
    alarm.addPropertyWithValue('description', draft.title);
    alarm.addPropertyWithValue('trigger', ICAL.Duration.fromSeconds(-draft.reminder * 60));
    vevent.addSubcomponent(alarm);
  }
  calendar.addSubcomponent(vevent);
  return calendar.toString();
}

export function caldavSource(account: CalDavAccount, options: { timeoutMs?: number } = {}): CalendarSource {
  const address = account.address.toLowerCase();
  let opened: ReturnType<typeof open> | undefined;
  async function open() {
    const client = await createDAVClient({
      serverUrl: account.url,
      credentials: { username: account.user, password: account.password },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
      fetchOptions: { signal: AbortSignal.timeout(options.timeoutMs ?? 30_000) },
    });
    const calendars = (await client.fetchCalendars()).filter(
      (c) => !c.components || c.components.includes('VEVENT'),
    );
    return { client, calendars };
  }
  const session = () => (opened ??= open());
  /** The calendar holding the object at `url`, and the object. */
  async function objectAt(url: string): Promise<{ calendar: DAVCalendar; object: DAVCalendarObject } | null> {
    const { client, calendars } = await session();
    const calendar = calendars.find((c) => url.startsWith(c.url));
    if (!calendar) return null;
    let objects: DAVCalendarObject[];
    try {
      objects = await client.fetchCalendarObjects({ calendar, objectUrls: [url] });
    } catch (err) {
      // tsdav says a missing object by the multiget's status.
      if (/\b404\b/.test((err as Error).message)) return null;
      throw err;
    }
    const [object] = objects;
    return object?.data ? { calendar, object } : null;
  }

  return {
    async invitations({ days, max }) {
      const { client, calendars } = await session();
      const from = new Date();
      const to = new Date(from.getTime() + days * 86_400_000);
      const found: Array<{ at: Date; event: CalendarEvent }> = [];
      for (const calendar of calendars) {
        const objects = await client.fetchCalendarObjects({
          calendar,
          timeRange: { start: from.toISOString(), end: to.toISOString() },
        });
        for (const object of objects) {
          if (!object.data) continue;
          const vevent = new ICAL.Component(ICAL.parse(object.data)).getFirstSubcomponent('vevent');
          if (!vevent || String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED')
            continue;
          if (!selfIn(vevent, address)) continue;
          const at = nextOccurrence(vevent, from, to);
          if (at) found.push({ at: at.toJSDate(), event: present(object.url, vevent, address, at) });
        }
      }
      return found
        .sort((a, b) => a.at.getTime() - b.at.getTime())
        .slice(0, max)
        .map((f) => f.event);
    },

    async create(draft) {
      const { client, calendars } = await session();
      const calendar = calendars[0];
      if (!calendar) throw new Error('The account has no calendar to add events to');
      const uid = randomUUID();
      const text = composeEvent(uid, draft);
      const made = await client.createCalendarObject({ calendar, filename: `${uid}.ics`, iCalString: text });
      if (!made.ok) throw new Error(`The calendar refused the event: ${made.status} ${made.statusText}`);
      const url = new URL(`${uid}.ics`, calendar.url).href;
      const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!;
      return present(url, vevent, address);
    },

    async respond(eventId, response) {
      const url = urlOf(eventId);
      const found = await objectAt(url);
      if (!found) return null;
      const calendar = new ICAL.Component(ICAL.parse(found.object.data as string));
      const vevent = calendar.getFirstSubcomponent('vevent');
      const self = vevent && selfIn(vevent, address);
      if (!vevent || !self) return null;
      self.setParameter('partstat', TO_PARTSTAT[response]!);
      self.removeParameter('rsvp');
      const { client } = await session();
      const saved = await client.updateCalendarObject({
        calendarObject: { ...found.object, data: calendar.toString() },
      });
      if (!saved.ok) throw new Error(`The calendar refused the answer: ${saved.status} ${saved.statusText}`);
      return present(
        url,
        vevent,
        address,
        nextOccurrence(vevent, new Date(), new Date(8.64e15)) ?? undefined,
      );
    },
  };
}
