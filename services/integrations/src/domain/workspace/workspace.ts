import type { Client } from '@notionhq/client';
import type { IntegrationType } from '@haven/contracts/integrations';
import type {
  Connections,
  CreatedPage,
  MoreAnswer,
  NotionAnswer,
  NotionPage,
  NotionPageDraft,
  SlackAnswer,
  SlackItem,
} from '@haven/contracts/workspace';
import type { FieldCipher } from '@haven/kit/crypto';
import { AppError, badGateway, conflict, notConnected, reconnectRequired } from '@haven/kit/errors';
import type { Logger } from '@haven/kit/logger';
import type { ProviderItemsRepository } from '../../db/provider-items.repository';
import { tokenContext, type Accounts, type Row } from '../accounts';
import { notionClient, slackClient, type ProviderSettings } from '../providers';
import { excerptOf, notionGrantLost, notionRestricted, paragraphs, searchPages } from './notion';
import { readSlack, slackGrantLost, slackScopeMissing } from './slack';
import { itemContext } from '../contexts';

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

/** The first line of a text (what the assistant sees with 'include full content' off). */
const firstLine = (text: string) => text.split('\n')[0]!.slice(0, 200);

export interface WorkspaceDeps {
  repo: ProviderItemsRepository;
  cipher: FieldCipher;
  accounts: Accounts;
  settings: ProviderSettings;
  log: Logger;
}

/** Slack and Notion: their syncs, the Assist panel, the assistant's tools and 'Save to Notion'. */
export function createWorkspace({ repo, cipher, accounts, settings, log }: WorkspaceDeps) {
  const tokenOf = (row: Row) => cipher.decrypt(row.accessTokenEnc!, tokenContext(row.userId));

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

  /** Replaces the cached items of `kinds` with `items` (what is gone from the provider leaves). */
  async function replaceItems(
    row: Row,
    kinds: string[],
    items: Array<{ kind: string; externalId: string; at: Date; needsReply: boolean; data: unknown }>,
  ): Promise<void> {
    await repo.upsert(
      items.map((item) => ({
        integrationId: row.id,
        userId: row.userId,
        kind: item.kind,
        externalId: item.externalId,
        at: item.at,
        needsReply: item.needsReply,
        dataEnc: cipher.encrypt(JSON.stringify(item.data), itemContext(row.userId)),
      })),
    );
    for (const kind of kinds)
      await repo.keepOnly(
        row.id,
        kind,
        items.filter((i) => i.kind === kind).map((i) => i.externalId),
      );
  }

  async function cached<T>(row: Row, kinds: string[], limit: number, onlyNeedingReply = false): Promise<T[]> {
    const rows = await repo.latest(row.id, kinds, limit, onlyNeedingReply);
    return rows.map((r) => JSON.parse(cipher.decrypt(r.dataEnc, itemContext(r.userId))) as T);
  }

  const notionOf = (row: Row): Client => notionClient(settings, tokenOf(row));

  return {
    /** The sync of a Slack or Notion account (errors are the caller's to classify). */
    async sync(row: Row): Promise<void> {
      if (row.provider === 'slack') {
        const { me, items } = await readSlack(slackClient(settings, tokenOf(row)));
        if (!row.accountEnc) await accounts.storeAddress(row, me);
        await replaceItems(
          row,
          ['mention', 'dm'],
          items.map((item) => ({
            kind: item.kind,
            externalId: item.id,
            at: new Date(item.at),
            needsReply: item.needsReply,
            data: item,
          })),
        );
      } else if (row.provider === 'notion') {
        const pages = await searchPages(notionOf(row));
        await replaceItems(
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
    },

    /** The 'More Integrations' panel: Slack messages waiting for a reply, recent Notion pages. */
    async more(userId: number): Promise<MoreAnswer> {
      const [slack, notion] = await Promise.all([
        connectedRow(userId, 'slack'),
        connectedRow(userId, 'notion'),
      ]);
      const configured = {
        slack: Boolean(settings.SLACK_CLIENT_ID && settings.SLACK_CLIENT_SECRET),
        notion: Boolean(settings.NOTION_CLIENT_ID && settings.NOTION_CLIENT_SECRET),
      };
      return {
        slack: {
          configured: configured.slack,
          ...(slack
            ? { connected: true, items: await cached<SlackItem>(slack, ['mention', 'dm'], 20, true) }
            : { connected: false, items: [] }),
        },
        notion: {
          configured: configured.notion,
          ...(notion
            ? { connected: true, pages: await cached<NotionPage>(notion, ['page'], 10) }
            : { connected: false, pages: [] }),
        },
      };
    },

    /** The assistant's `slack_mentions`: recent mentions and DMs; the first line only unless allowed. */
    async mentions(userId: number): Promise<SlackAnswer> {
      const row = await connectedRow(userId, 'slack');
      if (!row) return { connected: false, items: [] };
      const full = accounts.settingsOf(row).includeFullContent;
      const items = await cached<SlackItem>(row, ['mention', 'dm'], 30);
      return { connected: true, items: items.map((i) => (full ? i : { ...i, text: firstLine(i.text) })) };
    },

    /** The assistant's `search_notion`: the best pages, with an excerpt (first line unless allowed). */
    async notionSearch(userId: number, query: string): Promise<NotionAnswer> {
      const row = await connectedRow(userId, 'notion');
      if (!row) return { connected: false, pages: [] };
      const full = accounts.settingsOf(row).includeFullContent;
      const notion = notionOf(row);
      const pages = await onProvider(row, async () => {
        const found = (await searchPages(notion, query, 5)).slice(0, 3);
        return Promise.all(
          found.map(async (page) => {
            const excerpt = await excerptOf(notion, page.id, full ? 600 : 200);
            return { ...page, excerpt: full ? excerpt : firstLine(excerpt) };
          }),
        );
      });
      return { connected: true, pages };
    },

    /** Pages to choose from (where 'Save to Notion' writes). */
    async notionPages(userId: number, query?: string): Promise<NotionAnswer> {
      const row = await connectedRow(userId, 'notion');
      if (!row) throw notConnected(WORKSPACE_MESSAGES.noNotion);
      return { connected: true, pages: await onProvider(row, () => searchPages(notionOf(row), query, 20)) };
    },

    /** Creates a page with `content` under the page the user chose once. */
    async saveToNotion(userId: number, draft: NotionPageDraft): Promise<CreatedPage> {
      const row = await connectedRow(userId, 'notion');
      if (!row) throw notConnected(WORKSPACE_MESSAGES.noNotion);
      const parent = accounts.settingsOf(row).parentPageId;
      if (!parent) throw conflict(WORKSPACE_MESSAGES.noParent);
      const created = await onProvider(row, () =>
        notionOf(row).pages.create({
          parent: { page_id: parent },
          properties: { title: { title: [{ type: 'text', text: { content: draft.title } }] } },
          children: paragraphs(draft.content),
        }),
      );
      return { id: created.id, url: (created as { url?: string }).url ?? '' };
    },

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
