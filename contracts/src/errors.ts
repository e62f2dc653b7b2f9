import { z } from 'zod';

/** One problem found in a request, as zod reports it, reduced to what a client can act on. */
export const ErrorIssue = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  code: z.string().optional(),
});
export type ErrorIssue = z.infer<typeof ErrorIssue>;

/** The body of every non-2xx JSON answer, from every service and the gateway. */
export const ErrorBody = z.object({
  message: z.string(),
  /** Stable machine-readable code, e.g. `not_found`, `validation_failed`. */
  code: z.string().optional(),
  issues: z.array(ErrorIssue).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
