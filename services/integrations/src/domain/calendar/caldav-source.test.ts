import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRadicale, startRadicale, type Radicale } from '../../../../../test/support/radicale';
import { caldavSource, zonedToUtc } from './caldav-source';

const USER = 'ada@example.test';
const PASSWORD = 'cal-app-password';
const auth = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;

/** iCalendar's UTC form of a moment: 20261201T150000Z. */
const ical = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const inDays = (days: number, hour = 15) => {
  const at = new Date(Date.now() + days * 86_400_000);
  at.setUTCHours(hour, 0, 0, 0);
  return at;
};

/** An event as an organiser's server would have delivered it into the user's calendar. */
function invitation(
  uid: string,
  at: Date,
  extra: { attendees?: string[]; status?: string; rrule?: string } = {},
) {
  const attendees = extra.attendees ?? [
    'ATTENDEE;CN=Sam;PARTSTAT=ACCEPTED:mailto:sam@example.com',
    `ATTENDEE;CN=Ada;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${USER.toUpperCase()}`,
  ];
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example//Organiser//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:${ical(new Date())}`,
    `DTSTART:${ical(at)}`,
    `DTEND:${ical(new Date(at.getTime() + 3_600_000))}`,
    `SUMMARY:${uid}`,
    'LOCATION:Room 4',
    'ORGANIZER;CN=Sam:mailto:sam@example.com',
    ...attendees,
    ...(extra.status ? [`STATUS:${extra.status}`] : []),
    ...(extra.rrule ? [`RRULE:${extra.rrule}`] : []),
    'X-ORGANISER-NOTE:kept as written',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

describe.runIf(hasRadicale())('a CalDAV calendar (Radicale) as a CalendarSource', () => {
  let radicale: Radicale;
  const put = async (uid: string, text: string) => {
    const res = await fetch(`${radicale.calendarOf(USER)}${uid}.ics`, {
      method: 'PUT',
      headers: { authorization: auth, 'content-type': 'text/calendar' },
      body: text,
    });
    expect(res.status).toBe(201);
  };
  const get = async (url: string) => (await fetch(url, { headers: { authorization: auth } })).text();
  const source = () => caldavSource({ url: radicale.url, user: USER, password: PASSWORD, address: USER });

  beforeAll(async () => {
    radicale = await startRadicale({ [USER]: PASSWORD });
    await put('budget-review', invitation('budget-review', inDays(3)));
    await put('standup', invitation('standup', inDays(-2, 9), { rrule: 'FREQ=DAILY;COUNT=10' }));
    await put(
      'not-invited',
      invitation('not-invited', inDays(2), { attendees: ['ATTENDEE:mailto:sam@example.com'] }),
    );
    await put('cancelled', invitation('cancelled', inDays(4), { status: 'CANCELLED' }));
    await put('far-away', invitation('far-away', inDays(90)));
  });
  afterAll(async () => {
    await radicale?.stop();
  });

  it('lists the upcoming invitations, soonest first, with the user’s response', async () => {
    const events = await source().invitations({ days: 60, max: 50 });
    expect(events.map((e) => e.summary)).toEqual(['standup', 'budget-review']);
    const [standup, review] = events;
    // The recurring one at its next occurrence: tomorrow at 09:00 UTC (today's has passed or is today).
    expect(new Date(standup!.start.dateTime!).getTime()).toBeGreaterThan(Date.now() - 86_400_000);
    expect(review).toEqual({
      id: Buffer.from(`${radicale.calendarOf(USER)}budget-review.ics`).toString('base64url'),
      summary: 'budget-review',
      location: 'Room 4',
      start: { dateTime: inDays(3).toISOString() },
      end: { dateTime: new Date(inDays(3).getTime() + 3_600_000).toISOString() },
      organizer: { displayName: 'Sam', email: 'sam@example.com' },
      responseStatus: 'needsAction',
    });
    expect(await source().invitations({ days: 60, max: 1 })).toHaveLength(1);
  });

  it('stores an answer as the user’s PARTSTAT, keeping the rest as the organiser wrote it', async () => {
    const [, review] = await source().invitations({ days: 60, max: 50 });
    const answered = await source().respond(review!.id, 'accepted');
    expect(answered).toMatchObject({ summary: 'budget-review', responseStatus: 'accepted' });
    const stored = (await get(`${radicale.calendarOf(USER)}budget-review.ics`)).replace(/\r\n /g, '');
    expect(stored).toMatch(/ATTENDEE;CN=Ada;PARTSTAT=ACCEPTED:mailto:ADA@EXAMPLE\.TEST/);
    expect(stored).toMatch(/ATTENDEE;CN=Sam;PARTSTAT=ACCEPTED:mailto:sam@example\.com/);
    expect(stored).toContain('X-ORGANISER-NOTE:kept as written');
    expect(stored).not.toContain('RSVP=TRUE');
    const again = await source().invitations({ days: 60, max: 50 });
    expect(again.find((e) => e.summary === 'budget-review')?.responseStatus).toBe('accepted');
  });

  it('answers nothing for an event that is gone or not the user’s to answer', async () => {
    const gone = Buffer.from(`${radicale.calendarOf(USER)}no-such.ics`).toString('base64url');
    expect(await source().respond(gone, 'declined')).toBeNull();
    const notMine = Buffer.from(`${radicale.calendarOf(USER)}not-invited.ics`).toString('base64url');
    expect(await source().respond(notMine, 'declined')).toBeNull();
  });

  it('creates an event at the wall-clock time of its zone, with its reminder as a VALARM', async () => {
    const created = await source().create({
      title: 'Dentist',
      description: 'Bring the forms',
      location: 'High Street 12',
      start: { date: '2031-03-30', time: '09:30' },
      end: { date: '2031-03-30', time: '10:00' },
      timeZone: 'Europe/London',
      reminder: 30,
    });
    // 09:30 in London on 30 March 2031 is summer time: 08:30 UTC.
    expect(created).toMatchObject({
      summary: 'Dentist',
      location: 'High Street 12',
      start: { dateTime: '2031-03-30T08:30:00.000Z' },
      end: { dateTime: '2031-03-30T09:00:00.000Z' },
    });
    const stored = await get(Buffer.from(created.id, 'base64url').toString('utf8'));
    expect(stored).toContain('DTSTART:20310330T083000Z');
    expect(stored).toMatch(
      /BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Dentist\r\nTRIGGER:-PT30M\r\nEND:VALARM/,
    );
    expect(stored).toContain('DESCRIPTION:Bring the forms');
  });

  it('converts wall-clock times across a daylight-saving change', () => {
    expect(zonedToUtc('2031-03-30', '00:30', 'Europe/London').toISOString()).toBe('2031-03-30T00:30:00.000Z');
    expect(zonedToUtc('2031-03-30', '02:30', 'Europe/London').toISOString()).toBe('2031-03-30T01:30:00.000Z');
    expect(zonedToUtc('2031-11-02', '12:00', 'America/New_York').toISOString()).toBe(
      '2031-11-02T17:00:00.000Z',
    );
    expect(zonedToUtc('2031-07-01', '12:00', 'UTC').toISOString()).toBe('2031-07-01T12:00:00.000Z');
  });
});
