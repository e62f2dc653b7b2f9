import type { Suggestion } from '@haven/contracts/insights';

/*
 * The spec's keyword rules of the insights view (section 4): which button a suggestion gets, and
 * which kind a theme is grouped under.
 */

const SCHEDULING = [
  'schedule a time',
  'set up a meeting',
  'plan for',
  'prepare for',
  'schedule',
  'meet',
  'appointment',
  'plan',
  'calendar',
];
const COMMUNICATION = [
  'send an email',
  'reach out to',
  'reach out',
  'email',
  'message',
  'contact',
  'communicate',
  'conversation',
  'engage',
];

export type SuggestionAction = 'calendar' | 'email' | 'both' | 'none';

/** 'Add to Calendar', 'Draft Email', a menu with both, or a disabled 'Take Action'. */
export function actionFor(suggestion: Pick<Suggestion, 'title' | 'description'>): SuggestionAction {
  const text = `${suggestion.title} ${suggestion.description}`.toLowerCase();
  const calendar = SCHEDULING.some((k) => text.includes(k));
  const email = COMMUNICATION.some((k) => text.includes(k));
  if (calendar && email) return 'both';
  return calendar ? 'calendar' : email ? 'email' : 'none';
}

export type ThemeKind = 'personal' | 'professional' | 'creative' | 'other';
const KINDS: Array<[ThemeKind, string[]]> = [
  ['personal', ['personal', 'wellness', 'life balance']],
  ['professional', ['professional', 'work', 'career']],
  ['creative', ['creative', 'idea', 'inspiration']],
];

/** The group a theme's title places it in. */
export function themeKind(title: string): ThemeKind {
  const lower = title.toLowerCase();
  return KINDS.find(([, words]) => words.some((w) => lower.includes(w)))?.[0] ?? 'other';
}

export const THEME_KIND_LABELS: Record<ThemeKind, string> = {
  personal: 'Personal',
  professional: 'Professional',
  creative: 'Creative',
  other: 'Other',
};
