/** Lowercase identifier of the mail and calendar provider; it appears in some route paths. */
export const MAIL_PROVIDER = 'google';

/** Every route the SPA knows, with `getHref` for the ones that take parameters. */
export const paths = {
  root: { path: '/', getHref: () => '/' },
  welcome: { path: '/welcome', getHref: () => '/welcome' },
  auth: { path: '/auth', getHref: () => '/auth' },
  verifyEmail: { path: '/verify-email', getHref: () => '/verify-email' },
  verifyCode: {
    path: '/verify-code',
    getHref: (email?: string) => (email ? `/verify-code?email=${encodeURIComponent(email)}` : '/verify-code'),
  },
  resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
  privacyPolicy: { path: '/privacy-policy', getHref: () => '/privacy-policy' },
  debugDate: { path: '/debug/date', getHref: () => '/debug/date' },
  /** Settings → Troubleshooting; not in the spec's route table (spec 2, Settings). */
  debugAudio: { path: '/debug/audio', getHref: () => '/debug/audio' },

  home: { path: '/home', getHref: () => '/home' },
  insights: { path: '/insights', getHref: () => '/insights' },
  assist: { path: '/assist', getHref: () => '/assist' },
  integrations: { path: '/integrations', getHref: () => '/integrations' },
  integration: {
    path: '/integrations/:provider/:type',
    getHref: (provider: string, type: string) =>
      `/integrations/${encodeURIComponent(provider)}/${encodeURIComponent(type)}`,
  },
  directAuth: { path: `/direct-${MAIL_PROVIDER}-auth`, getHref: () => `/direct-${MAIL_PROVIDER}-auth` },
  directCallback: {
    path: `/direct-${MAIL_PROVIDER}-callback`,
    getHref: () => `/direct-${MAIL_PROVIDER}-callback`,
  },
  settings: { path: '/settings', getHref: () => '/settings' },
  timeline: { path: '/timeline', getHref: () => '/timeline' },
  conversations: { path: '/conversations', getHref: () => '/conversations' },
  /** A conversation before its first message (drawn by the conversation route; nothing on the server yet). */
  newConversation: { path: '/conversations/new', getHref: () => '/conversations/new' },
  conversation: {
    path: '/conversations/:id',
    getHref: (id: number | string) => `/conversations/${encodeURIComponent(String(id))}`,
  },
} as const;

/** Navigation state `/auth` reads to pick its initial tab. */
export interface AuthLocationState {
  tab?: 'login' | 'register';
  /** Sent here because the session lapsed (a 401 while signed in): the screen says so. */
  sessionEnded?: boolean;
}
