import { calendarContract, type EventMoment, type ReminderMinutes } from '@haven/contracts/calendar';
import { HttpError } from '@haven/contracts/client';

import { api } from '@/lib/api';

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
 * Creates the event in the connected calendar (in this browser's time zone). Without a connected
 * calendar (409) it is the spec's simulation (section 4: "created locally after 1 s"), so the
 * dialog behaves as before connecting. Any other failure is the caller's to report.
 */
export async function scheduleEvent(draft: EventDraft): Promise<void> {
  try {
    await api(calendarContract.createEvent, {
      body: {
        title: draft.title,
        description: draft.description || undefined,
        start: draft.start,
        end: draft.end,
        location: draft.location || undefined,
        reminder: draft.reminderMinutes as ReminderMinutes,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    });
  } catch (error) {
    if (!(error instanceof HttpError && error.status === 409)) throw error;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
