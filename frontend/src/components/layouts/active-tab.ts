import { paths } from '@/config/paths';

export type TabId = 'assist' | 'insights' | 'integrations' | 'settings';

function under(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/**
 * The bottom tab that owns a path. /home and /insights are both the insights view; screens reached
 * from a tab (timeline from insights, conversations from assist, integration details) keep it lit.
 */
export function getActiveTab(pathname: string): TabId | null {
  if (under(pathname, paths.assist.path) || under(pathname, paths.conversations.path)) return 'assist';
  if (
    under(pathname, paths.home.path) ||
    under(pathname, paths.insights.path) ||
    under(pathname, paths.timeline.path)
  ) {
    return 'insights';
  }
  if (
    under(pathname, paths.integrations.path) ||
    pathname === paths.directAuth.path ||
    pathname === paths.directCallback.path
  ) {
    return 'integrations';
  }
  if (under(pathname, paths.settings.path)) return 'settings';
  return null;
}
