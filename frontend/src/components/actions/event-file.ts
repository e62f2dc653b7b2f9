import type { EventDraft } from './schedule-event';

const parts = (m: { date: string; time: string }): [number, number, number, number, number] => {
  const [year, month, day] = m.date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = m.time.split(':').map(Number) as [number, number];
  return [year, month, day, hour, minute];
};

/**
 * The event as an iCalendar file any calendar app opens. The wall-clock times are this browser's
 * (as the dialog shows them), written as UTC instants. `ics` loads only when asked for.
 */
export async function eventFile(draft: EventDraft): Promise<File> {
  const { createEvent } = await import('ics');
  const { error, value } = createEvent({
    title: draft.title,
    description: draft.description || undefined,
    location: draft.location || undefined,
    start: parts(draft.start),
    startInputType: 'local',
    startOutputType: 'utc',
    end: parts(draft.end),
    endInputType: 'local',
    endOutputType: 'utc',
    productId: 'haven/ics',
    alarms: draft.reminderMinutes
      ? [
          {
            action: 'display',
            description: draft.title,
            trigger: { minutes: draft.reminderMinutes, before: true },
          },
        ]
      : [],
  });
  if (error || !value) throw error ?? new Error('Could not write the event file');
  const name = draft.title.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'event';
  return new File([value], `${name}.ics`, { type: 'text/calendar' });
}

/** Hands the file to the browser as a download. */
export function download(file: File): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.click();
  // Kept a moment for the download to start reading it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
