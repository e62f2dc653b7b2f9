/** Dates as the user sees them: their wall clock, from the browser's getTimezoneOffset(). */
export const pad = (n: number) => String(n).padStart(2, '0');
/** The user's wall clock now, as a Date whose UTC fields are the user's local fields. */
export const userNow = (offset: number, at: Date = new Date()) => new Date(at.getTime() - offset * 60_000);
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const DAY = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
export const dayName = (localDate: string) => DAY.format(new Date(`${localDate}T12:00:00Z`));
