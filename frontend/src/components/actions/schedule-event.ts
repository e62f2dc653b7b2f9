import type { EventMoment } from '@haven/contracts/calendar';

/** An event the user confirmed in the event dialog. */
export interface EventDraft {
  title: string;
  description: string;
  start: EventMoment;
  end: EventMoment;
  location: string;
  reminderMinutes: number;
}

/**
 * Creates the event. Until the calendar integration exists this is the spec's simulation (section
 * 4: "created locally after 1 s with no call"); the integration replaces this one function with
 * `POST /api/calendar/events` when a calendar is connected.
 */
export async function scheduleEvent(draft: EventDraft): Promise<void> {
  void draft;
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
