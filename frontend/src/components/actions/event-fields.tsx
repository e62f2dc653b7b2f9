import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { formatClock } from '@/lib/format-date';
import { Field, selectClass } from './field';
import type { EventDraft } from './schedule-event';

/** Every 15 minutes over 24 hours (spec 9). */
const TIMES = Array.from(
  { length: 96 },
  (_, i) => `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
);
const REMINDERS: Array<[number, string]> = [
  [0, 'None'],
  [10, '10 minutes before'],
  [30, '30 minutes before'],
  [60, '1 hour before'],
  [1440, '1 day before'],
];

/** A time select that still shows a prefilled time off the 15-minute grid. */
function TimeSelect({ id, value, onChange }: { id: string; value: string; onChange: (v: string) => void }) {
  const options = TIMES.includes(value) ? TIMES : [...TIMES, value].sort();
  return (
    <select id={id} className={selectClass} value={value} onChange={(e) => onChange(e.target.value)}>
      {options.map((t) => (
        <option key={t} value={t}>
          {formatClock(t)}
        </option>
      ))}
    </select>
  );
}

interface EventFieldsProps {
  draft: EventDraft;
  /** Merges the changed fields into the draft. */
  onChange: (patch: Partial<EventDraft>) => void;
}

/** The event dialog's fields: title, description, start and end, location and reminder. */
export function EventFields({ draft, onChange: set }: EventFieldsProps) {
  return (
    <>
      <Field label="Title">
        {(id) => <Input id={id} value={draft.title} onChange={(e) => set({ title: e.target.value })} />}
      </Field>
      <Field label="Description">
        {(id) => (
          <Textarea
            id={id}
            rows={3}
            value={draft.description}
            onChange={(e) => set({ description: e.target.value })}
          />
        )}
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="Start date">
          {(id) => (
            <Input
              id={id}
              type="date"
              value={draft.start.date}
              onChange={(e) => set({ start: { ...draft.start, date: e.target.value } })}
            />
          )}
        </Field>
        <Field label="Start time">
          {(id) => (
            <TimeSelect
              id={id}
              value={draft.start.time}
              onChange={(time) => set({ start: { ...draft.start, time } })}
            />
          )}
        </Field>
        <Field label="End date">
          {(id) => (
            <Input
              id={id}
              type="date"
              value={draft.end.date}
              onChange={(e) => set({ end: { ...draft.end, date: e.target.value } })}
            />
          )}
        </Field>
        <Field label="End time">
          {(id) => (
            <TimeSelect
              id={id}
              value={draft.end.time}
              onChange={(time) => set({ end: { ...draft.end, time } })}
            />
          )}
        </Field>
      </div>
      <Field label="Location">
        {(id) => <Input id={id} value={draft.location} onChange={(e) => set({ location: e.target.value })} />}
      </Field>
      <Field label="Reminder">
        {(id) => (
          <select
            id={id}
            className={selectClass}
            value={draft.reminderMinutes}
            onChange={(e) => set({ reminderMinutes: Number(e.target.value) })}
          >
            {REMINDERS.map(([minutes, label]) => (
              <option key={minutes} value={minutes}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}
