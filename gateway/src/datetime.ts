import type { DateTimeDebug } from '@haven/contracts/debug';

/** The server's view of "now", as the debug date page compares it with the browser's. */
export function describeNow(now = new Date()): DateTimeDebug {
  return {
    isoString: now.toISOString(),
    localString: now.toString(),
    utcString: now.toUTCString(),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    components: {
      year: now.getFullYear(),
      month: now.getMonth() + 1,
      day: now.getDate(),
      hours: now.getHours(),
      minutes: now.getMinutes(),
      seconds: now.getSeconds(),
      milliseconds: now.getMilliseconds(),
      dayOfWeek: now.getDay(),
      timezoneOffset: now.getTimezoneOffset(),
    },
  };
}
