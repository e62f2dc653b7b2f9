/*
 * The names the app writes its dates with. Every label of the product is English (the spec gives
 * them so), and the SPA writes its dates from these names instead of building Intl formatters: the
 * first formatter a page builds sets up ICU's locale data, some 30 ms of a phone's main thread.
 */

/** Weekday names, as `Date.getDay()` numbers the days (Sunday first). */
export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** Month names, as `Date.getMonth()` numbers the months (January is 0). */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
