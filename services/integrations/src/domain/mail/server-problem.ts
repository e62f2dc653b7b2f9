import { AddressRefused } from './servers/address-guard';

/**
 * What an error from a mail or calendar server says about the account's connection itself (the
 * password no longer accepted), as the message the user reads; null when it is about this one call
 * (a server down, a dropped connection: the next sync tries again).
 */
export function serverProblem(err: unknown): string | null {
  // A server whose name now leads to a private network (see address-guard.ts).
  if (err instanceof AddressRefused) return err.message;
  const e = err as { authenticationFailed?: boolean; code?: string; responseCode?: number; message?: string };
  if (e.authenticationFailed || e.code === 'EAUTH' || e.responseCode === 535)
    return 'The mail server no longer accepts the app password. Please reconnect with a new one.';
  // tsdav: a CalDAV request answered 401.
  if (e.message && /\b401\b|Unauthorized|Invalid credentials/.test(e.message))
    return 'The calendar server no longer accepts the app password. Please reconnect with a new one.';
  return null;
}
