import { z } from 'zod';
import { defineContract } from './contract';

/** The parts of the server's current local time. */
export const DateTimeComponents = z.object({
  year: z.number().int(),
  /** 1..12 (not JavaScript's 0-based month). */
  month: z.number().int(),
  day: z.number().int(),
  hours: z.number().int(),
  minutes: z.number().int(),
  seconds: z.number().int(),
  milliseconds: z.number().int(),
  /** 0 = Sunday .. 6 = Saturday. */
  dayOfWeek: z.number().int(),
  /** As `Date.prototype.getTimezoneOffset()`: minutes to add to local time to get UTC. */
  timezoneOffset: z.number().int(),
});
export type DateTimeComponents = z.infer<typeof DateTimeComponents>;

/** GET /api/debug/datetime: the server's clock, for the `/debug/date` page. */
export const DateTimeDebug = z.object({
  isoString: z.string(),
  localString: z.string(),
  utcString: z.string(),
  /** IANA zone of the server, e.g. `Europe/Paris`. */
  timezone: z.string(),
  components: DateTimeComponents,
});
export type DateTimeDebug = z.infer<typeof DateTimeDebug>;

/** Route answered by the gateway itself. */
export const debugContract = defineContract({
  datetime: {
    method: 'GET',
    path: '/api/debug/datetime',
    responses: { 200: DateTimeDebug },
    summary: 'Public; reveals nothing but the server clock and zone.',
  },
});
