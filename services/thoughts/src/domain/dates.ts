/**
 * The user's own calendar day for an instant. `timezoneOffset` is the browser's
 * `Date.getTimezoneOffset()`: minutes, positive west of UTC (UTC-8 sends 480), so local time is
 * UTC minus the offset. A thought saved at 23:30 in Los Angeles lands on the Los Angeles day.
 */
export function localDateOf(instant: Date, timezoneOffset = 0): string {
  return new Date(instant.getTime() - timezoneOffset * 60_000).toISOString().slice(0, 10);
}
