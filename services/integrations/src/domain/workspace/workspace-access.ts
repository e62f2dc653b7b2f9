import type { Client } from '@notionhq/client';
import type { WebClient } from '@slack/web-api';
import type { FieldCipher } from '@haven/kit/crypto';
import { AppError, badGateway, reconnectRequired } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import { tokenContext, type Accounts, type Row } from '../accounts';
import { notionClient, slackClient, type ProviderSettings } from '../providers';
import { WORKSPACE_MESSAGES, workspaceProblem } from './workspace-problems';

export interface WorkspaceAccessDeps {
  cipher: FieldCipher;
  accounts: Accounts;
  settings: ProviderSettings;
  log: Logger;
}

/** A user's Slack or Notion connection: its row, clients with its token, and calls made for the user. */
export function workspaceAccess({ cipher, accounts, settings, log }: WorkspaceAccessDeps) {
  const tokenOf = (row: Row) => cipher.decrypt(row.accessTokenEnc!, tokenContext(row.userId));

  /** The user's connected account of that provider, with a token; null when there is none. */
  async function connectedRow(userId: number, provider: 'slack' | 'notion'): Promise<Row | null> {
    const row = await accounts.connectedOf(userId, provider === 'slack' ? 'messages' : 'documents', provider);
    return row?.accessTokenEnc ? row : null;
  }

  /** A user's call to the provider: a lost grant becomes the connection issue, other failures 502. */
  async function onProvider<T>(row: Row, call: () => Promise<T>): Promise<T> {
    const name = row.provider === 'slack' ? 'Slack' : 'Notion';
    try {
      return await call();
    } catch (err) {
      if (err instanceof AppError) throw err;
      const problem = workspaceProblem(err, name);
      if (problem) {
        await accounts.markError(row, problem);
        throw reconnectRequired(problem);
      }
      log.warn({ err, integrationId: row.id }, `${name} call failed`);
      throw badGateway(WORKSPACE_MESSAGES.failed(name));
    }
  }

  return {
    connectedRow,
    onProvider,
    notionOf: (row: Row): Client => notionClient(settings, tokenOf(row)),
    slackOf: (row: Row): WebClient => slackClient(settings, tokenOf(row)),
  };
}
export type WorkspaceAccess = ReturnType<typeof workspaceAccess>;
