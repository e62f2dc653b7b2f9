import type { CalendarEvent } from '@haven/contracts/calendar';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { keepOnlyCalendarEvents, upsertCalendarEvents } from '../../db/calendar-events.repository';
import { eventContext } from '../contexts';
import type { CalendarSource } from './source';
export { eventContext };

/** How far ahead invitations are looked for, and how many events are read at most. */
export const CALENDAR_WINDOW_DAYS = 60;
const CALENDAR_MAX = 1000;

const startOf = (event: CalendarEvent) =>
  new Date(event.start.dateTime ?? (event.start.date ? `${event.start.date}T00:00:00Z` : Date.now()));

/**
 * Refreshes the cache of upcoming events in which the user is an attendee (the next 60 days,
 * recurring events expanded): what is gone from the calendar leaves the cache.
 */
export async function syncCalendar(
  deps: { db: Db; cipher: FieldCipher },
  source: CalendarSource,
  calendar: { integrationId: number; userId: number },
): Promise<void> {
  const mine = await source.invitations({ days: CALENDAR_WINDOW_DAYS, max: CALENDAR_MAX });
  await storeEvents(deps, calendar, mine);
  await keepOnlyCalendarEvents(
    deps.db,
    calendar.integrationId,
    mine.map((e) => e.id),
  );
}

/** Stores (or updates) events in the cache, encrypted. */
export async function storeEvents(
  { db, cipher }: { db: Db; cipher: FieldCipher },
  calendar: { integrationId: number; userId: number },
  events: CalendarEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((presented) => ({
    integrationId: calendar.integrationId,
    userId: calendar.userId,
    eventId: presented.id,
    startsAt: startOf(presented),
    responseStatus: presented.responseStatus ?? 'needsAction',
    dataEnc: cipher.encrypt(JSON.stringify(presented), eventContext(calendar.userId)),
  }));
  await upsertCalendarEvents(db, rows);
}
