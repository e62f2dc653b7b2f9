/**
 * Which service owns which public path prefix (docs/architecture.md, "Services and what they own").
 * The gateway routes with this table; nothing else decides where a request goes.
 */
export const SERVICE_NAMES = [
  'auth',
  'thoughts',
  'insights',
  'assistant',
  'integrations',
  'portability',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Path prefixes (matched on whole segments) and their owning service. */
export const ROUTE_TABLE: ReadonlyArray<{ prefix: string; service: ServiceName }> = [
  { prefix: '/api/user-preferences', service: 'auth' },
  { prefix: '/api/user', service: 'auth' },
  { prefix: '/api/session', service: 'auth' },
  { prefix: '/api/account', service: 'portability' },
  { prefix: '/api/login', service: 'auth' },
  { prefix: '/api/register', service: 'auth' },
  { prefix: '/api/logout', service: 'auth' },
  { prefix: '/api/request-verification', service: 'auth' },
  { prefix: '/api/verify-email', service: 'auth' },
  { prefix: '/api/resend-verification', service: 'auth' },
  { prefix: '/api/forgot-password', service: 'auth' },
  { prefix: '/api/reset-password', service: 'auth' },
  { prefix: '/api/thoughts', service: 'thoughts' },
  { prefix: '/api/analyze-content', service: 'thoughts' },
  { prefix: '/api/insights', service: 'insights' },
  { prefix: '/api/conversations', service: 'assistant' },
  { prefix: '/api/assistant', service: 'assistant' },
  { prefix: '/api/integrations', service: 'integrations' },
  { prefix: '/api/assist', service: 'integrations' },
  { prefix: '/api/email', service: 'integrations' },
  { prefix: '/api/calendar', service: 'integrations' },
  { prefix: '/api/notion', service: 'integrations' },
  { prefix: '/api/auth/google', service: 'integrations' },
  { prefix: '/api/auth/microsoft', service: 'integrations' },
  { prefix: '/api/auth/slack', service: 'integrations' },
  { prefix: '/api/auth/notion', service: 'integrations' },
  { prefix: '/api/push', service: 'integrations' },
];

/**
 * Routes reachable without a session. The gateway still forwards the user when a valid cookie is
 * present (logout needs it), but does not demand one.
 */
export const PUBLIC_ROUTES: ReadonlyArray<string> = [
  '/api/login',
  '/api/register',
  '/api/logout',
  // Answers a visitor too ({ user: null }): whether someone is signed in is the question it answers.
  '/api/session',
  '/api/request-verification',
  '/api/verify-email',
  '/api/resend-verification',
  '/api/forgot-password',
  '/api/reset-password',
  '/api/debug/datetime',
  // The provider redirects the browser here; the signed OAuth state identifies the user.
  '/api/auth/google/callback',
  '/api/auth/microsoft/callback',
  '/api/auth/slack/callback',
  '/api/auth/notion/callback',
  // Gmail's Pub/Sub push and Graph's notifications: servers calling, each checked by its own secret.
  '/api/push/google',
  '/api/push/microsoft',
];

/** True when `path` is `prefix` itself or lies below it (`/api/user` does not match `/api/users`). */
export function matchesPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix + '/');
}

/** The service that owns a path, or undefined for an unknown `/api` path. */
export function serviceFor(path: string): ServiceName | undefined {
  return ROUTE_TABLE.find((r) => matchesPrefix(path, r.prefix))?.service;
}

/** True when the path may be called without a session. */
export function isPublicRoute(path: string): boolean {
  return PUBLIC_ROUTES.some((p) => matchesPrefix(path, p));
}

/** Header names that carry identity between hops; the gateway strips any a client sends. */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';
export const REQUEST_ID_HEADER = 'x-request-id';
/** The caller's address as the gateway saw it (rate limits key on it). */
export const CLIENT_IP_HEADER = 'x-client-ip';
export const IDENTITY_HEADERS: ReadonlyArray<string> = [
  INTERNAL_TOKEN_HEADER,
  CLIENT_IP_HEADER,
  'x-user-id',
  'x-user',
  'x-forwarded-user',
  'x-auth-user',
];

/** Name of the session cookie the auth service sets and the gateway verifies. */
export const SESSION_COOKIE = 'haven_session';
