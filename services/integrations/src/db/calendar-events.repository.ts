import { and, asc, eq, gte, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { excluded } from './excluded';
import { calendarEvents } from './schema';

// The only code that reads and writes `calendar_events` (the cached upcoming invitations).

export type CalendarEventRow = typeof calendarEvents.$inferSelect;
export type CalendarEventInsert = typeof calendarEvents.$inferInsert;

const ofAccount = (integrationId: number) => eq(calendarEvents.integrationId, integrationId);

/** Stores these events, or updates those already cached (by the calendar's event id). */
export async function upsertCalendarEvents(db: DbOrTx, rows: CalendarEventInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(calendarEvents)
    .values(rows)
    .onConflictDoUpdate({
      target: [calendarEvents.integrationId, calendarEvents.eventId],
      set: {
        startsAt: excluded('starts_at'),
        responseStatus: excluded('response_status'),
        dataEnc: excluded('data_enc'),
      },
    });
}

/** Every event of the account but `eventIds` (what the calendar still has) leaves the cache. */
export async function keepOnlyCalendarEvents(
  db: DbOrTx,
  integrationId: number,
  eventIds: string[],
): Promise<void> {
  await db
    .delete(calendarEvents)
    .where(
      and(
        ofAccount(integrationId),
        eventIds.length ? notInArray(calendarEvents.eventId, eventIds) : undefined,
      ),
    );
}

/** Invitations the user has not answered starting at `from` or later, soonest first. */
export function eventsAwaitingAnswer(
  db: DbOrTx,
  integrationId: number,
  from: Date,
  limit: number,
): Promise<CalendarEventRow[]> {
  return db
    .select()
    .from(calendarEvents)
    .where(
      and(
        ofAccount(integrationId),
        eq(calendarEvents.responseStatus, 'needsAction'),
        gte(calendarEvents.startsAt, from),
      ),
    )
    .orderBy(asc(calendarEvents.startsAt))
    .limit(limit);
}

/** One cached event of the user, in whichever of their calendars. */
export async function findEventOfUser(
  db: DbOrTx,
  userId: number,
  eventId: string,
): Promise<CalendarEventRow | undefined> {
  const [row] = await db
    .select()
    .from(calendarEvents)
    .where(and(eq(calendarEvents.userId, userId), eq(calendarEvents.eventId, eventId)));
  return row;
}
