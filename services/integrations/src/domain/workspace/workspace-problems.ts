import { notionGrantLost, notionRestricted } from './notion';
import { slackGrantLost, slackScopeMissing } from './slack';

export const WORKSPACE_MESSAGES = {
  noSlack: 'No Slack workspace is connected. Connect Slack on the Integrations page first.',
  noNotion: 'No Notion workspace is connected. Connect Notion on the Integrations page first.',
  noParent: 'Choose the Notion page to save into on the Notion integration page first.',
  revoked: (provider: string) => `${provider} no longer accepts this connection. Please reconnect.`,
  missingScope: (provider: string) =>
    `${provider} did not give Haven the access this needs (a permission was left out). Please reconnect and allow it.`,
  failed: (provider: string) => `${provider} did not complete the request. Please try again.`,
};

/**
 * What a Slack or Notion error says about the connection itself, as the message the user reads
 * (`name`: 'Slack' or 'Notion'); null when it is about this one call.
 */
export function workspaceProblem(err: unknown, name: string): string | null {
  if (slackScopeMissing(err) || notionRestricted(err)) return WORKSPACE_MESSAGES.missingScope(name);
  if (slackGrantLost(err) || notionGrantLost(err)) return WORKSPACE_MESSAGES.revoked(name);
  return null;
}
