import type { IntegrationType } from '@haven/contracts/integrations';
import type { Connections, MoreAnswer, NotionPage, SlackItem } from '@haven/contracts/workspace';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Logger } from '@haven/kit/logger';
import type { Db } from '@haven/kit/db';
import type { Accounts, Row } from '../accounts';
import type { ProviderSettings } from '../providers';
import { assistantReads } from './assistant-reads';
import { itemCache, type ItemCache } from './item-cache';
import { searchPages } from './notion';
import { saveToNotion } from './save-to-notion';
import { readSlack } from './slack';
import { workspaceAccess, type WorkspaceAccess } from './workspace-access';

export { WORKSPACE_MESSAGES, workspaceProblem } from './workspace-problems';

export interface WorkspaceDeps {
  db: Db;
  cipher: FieldCipher;
  accounts: Accounts;
  settings: ProviderSettings;
  log: Logger;
}

interface Parts {
  accounts: Accounts;
  access: WorkspaceAccess;
  items: ItemCache;
}

/** The sync of a Slack or Notion account (errors are the caller's to classify). */
async function syncAccount({ accounts, access, items }: Parts, row: Row): Promise<void> {
  if (row.provider === 'slack') {
    const { me, items: found } = await readSlack(access.slackOf(row));
    if (!row.accountEnc) await accounts.storeAddress(row, me);
    await items.replaceItems(
      row,
      ['mention', 'dm'],
      found.map((item) => ({
        kind: item.kind,
        externalId: item.id,
        at: new Date(item.at),
        needsReply: item.needsReply,
        data: item,
      })),
    );
  } else if (row.provider === 'notion') {
    const pages = await searchPages(access.notionOf(row));
    await items.replaceItems(
      row,
      ['page'],
      pages.map((page) => ({
        kind: 'page',
        externalId: page.id,
        at: new Date(page.lastEdited),
        needsReply: false,
        data: page,
      })),
    );
  }
}

/** The 'More Integrations' panel: Slack messages waiting for a reply, recent Notion pages. */
async function morePanel(
  { access, items }: Parts,
  settings: ProviderSettings,
  userId: number,
): Promise<MoreAnswer> {
  const [slack, notion] = await Promise.all([
    access.connectedRow(userId, 'slack'),
    access.connectedRow(userId, 'notion'),
  ]);
  const configured = {
    slack: Boolean(settings.SLACK_CLIENT_ID && settings.SLACK_CLIENT_SECRET),
    notion: Boolean(settings.NOTION_CLIENT_ID && settings.NOTION_CLIENT_SECRET),
  };
  return {
    slack: {
      configured: configured.slack,
      ...(slack
        ? { connected: true, items: await items.cached<SlackItem>(slack, ['mention', 'dm'], 20, true) }
        : { connected: false, items: [] }),
    },
    notion: {
      configured: configured.notion,
      ...(notion
        ? { connected: true, pages: await items.cached<NotionPage>(notion, ['page'], 10) }
        : { connected: false, pages: [] }),
    },
  };
}

/** Slack and Notion: their syncs, the Assist panel, the assistant's tools and 'Save to Notion'. */
export function createWorkspace({ db, cipher, accounts, settings, log }: WorkspaceDeps) {
  const access = workspaceAccess({ cipher, accounts, settings, log });
  const parts: Parts = { accounts, access, items: itemCache({ db, cipher }) };

  return {
    /** The sync of a Slack or Notion account (errors are the caller's to classify). */
    sync: (row: Row): Promise<void> => syncAccount(parts, row),

    /** The 'More Integrations' panel: Slack messages waiting for a reply, recent Notion pages. */
    more: (userId: number): Promise<MoreAnswer> => morePanel(parts, settings, userId),

    ...assistantReads(parts),
    ...saveToNotion(parts),

    /** Which kinds of integration the user has connected. */
    async connections(userId: number): Promise<Connections> {
      const rows = await accounts.all(userId);
      const has = (type: IntegrationType) => rows.some((r) => r.type === type && accounts.isConnected(r));
      return {
        email: has('email'),
        calendar: has('calendar'),
        messages: has('messages'),
        documents: has('documents'),
      };
    },
  };
}
export type Workspace = ReturnType<typeof createWorkspace>;
