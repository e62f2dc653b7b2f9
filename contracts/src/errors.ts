import { z } from 'zod';

/**
 * Every machine-readable error code an answer may carry, so the SPA (and other services) can branch
 * on them with types. Services build errors through the kit's named helpers, one per code.
 */
export const ErrorCode = z.enum([
  'bad_request',
  'validation_failed',
  'malformed_json',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'rate_limited',
  'internal',
  'bad_gateway',
  'unavailable',
  'internal_token_missing',
  'internal_token_invalid',
  'gone',
  'unsupported_media_type',
  // A 409 from an action on a mail or calendar account: none is connected, or the one there needs
  // the user to connect it again (revoked grant, sync error). The SPA offers to connect either way.
  'not_connected',
  'reconnect_required',
  // A mail server refused the settings a person entered (wrong password, no such host…): 422, each
  // server's problem an issue (`imap`, `smtp`) with its ServerProblem as the code.
  'server_refused',
  // Reasons an e-mailed verification link failed (spec 8, "Email verification link reasons").
  'invalid_token',
  'expired_token',
  'user_not_found',
  'update_failed',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

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
  code: ErrorCode.optional(),
  issues: z.array(ErrorIssue).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
