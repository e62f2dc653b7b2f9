import {
  calendarContract,
  type CalendarEvent,
  type EventMoment,
  type ReminderMinutes,
} from '@haven/contracts/calendar';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

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
 * Creates the event in the connected calendar (in this browser's time zone). It resolves only when
 * the calendar holds the event: without a usable calendar the server's 409 says why (`not_connected`
 * or `reconnect_required`), and nothing pretends otherwise.
 */
export function scheduleEvent(draft: EventDraft): Promise<CalendarEvent> {
  return api(calendarContract.createEvent, {
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
}

export function useScheduleEvent({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof scheduleEvent> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: scheduleEvent });
}
