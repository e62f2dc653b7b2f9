import { google } from 'googleapis';
import type { Config } from '@haven/kit/config';
import type { IntegrationType } from '@haven/contracts/integrations';

/** Calendar: events and the calendar itself, plus who the account is. */
const CALENDAR_SCOPES = [
  'https://www.googleapis.com/auth/calendar',
  'https://www.googleapis.com/auth/calendar.events',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
];
/**
 * Mail: the spec's compose scope (drafts and sending) plus read-only mail, which the digest needs
 * (the README says so).
 */
const EMAIL_SCOPES = [
  'https://www.googleapis.com/auth/gmail.compose',
  'https://www.googleapis.com/auth/gmail.readonly',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
];

export function scopesFor(type: IntegrationType): string[] {
  return type === 'calendar' ? CALENDAR_SCOPES : EMAIL_SCOPES;
}

/** Where Google sends the browser back: the gateway's public callback route. */
export const callbackUrl = (appUrl: string) => `${appUrl}/api/auth/google/callback`;

export type GoogleSettings = Pick<
  Config,
  'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET' | 'GOOGLE_AUTH_URL' | 'GOOGLE_TOKEN_URL' | 'GOOGLE_API_ROOT_URL'
> & { appUrl: string };

/**
 * An OAuth client of the official library, pointed at the configured endpoints (Google's by
 * default; a local double in tests). Null when the server has no Google client configured.
 */
export function oauthClient(settings: GoogleSettings) {
  if (!settings.GOOGLE_CLIENT_ID || !settings.GOOGLE_CLIENT_SECRET) return null;
  return new google.auth.OAuth2({
    clientId: settings.GOOGLE_CLIENT_ID,
    clientSecret: settings.GOOGLE_CLIENT_SECRET,
    redirectUri: callbackUrl(settings.appUrl),
    // A 401 on a token its clock still holds valid (revoked at Google, or expired early) gets one
    // refresh: a revoked grant then reads as one (invalid_grant), not as Google failing.
    forceRefreshOnFailure: true,
    endpoints: {
      oauth2AuthBaseUrl: settings.GOOGLE_AUTH_URL,
      oauth2TokenUrl: settings.GOOGLE_TOKEN_URL,
      // Google revokes at /revoke beside /token.
      oauth2RevokeUrl: new URL('revoke', settings.GOOGLE_TOKEN_URL).href,
    },
  });
}
export type GoogleOAuthClient = NonNullable<ReturnType<typeof oauthClient>>;

/*
 * The client's own retries are off: a sync that meets a rate limit backs off by its own schedule
 * (and says so), and a user's request answers at once rather than after hidden retries.
 */
export const gmailOf = (auth: GoogleOAuthClient, rootUrl: string) =>
  google.gmail({ version: 'v1', auth, rootUrl, retry: false });
export const calendarOf = (auth: GoogleOAuthClient, rootUrl: string) =>
  google.calendar({ version: 'v3', auth, rootUrl, retry: false });
