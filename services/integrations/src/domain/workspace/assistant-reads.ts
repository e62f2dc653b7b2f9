import type { NotionAnswer, SlackAnswer, SlackItem } from '@haven/contracts/workspace';
import type { Accounts } from '../accounts';
import type { ItemCache } from './item-cache';
import { excerptOf, searchPages } from './notion';
import type { WorkspaceAccess } from './workspace-access';

/** The first line of a text (what the assistant sees with 'include full content' off). */
const firstLine = (text: string) => text.split('\n')[0]!.slice(0, 200);

/** The assistant's tools over Slack and Notion, within what each account lets leave. */
export function assistantReads({
  accounts,
  access,
  items,
}: {
  accounts: Accounts;
  access: WorkspaceAccess;
  items: ItemCache;
}) {
  return {
    /** The assistant's `slack_mentions`: recent mentions and DMs; the first line only unless allowed. */
    async mentions(userId: number): Promise<SlackAnswer> {
      const row = await access.connectedRow(userId, 'slack');
      if (!row) return { connected: false, items: [] };
      const full = accounts.settingsOf(row).includeFullContent;
      const found = await items.cached<SlackItem>(row, ['mention', 'dm'], 30);
      return { connected: true, items: found.map((i) => (full ? i : { ...i, text: firstLine(i.text) })) };
    },

    /** The assistant's `search_notion`: the best pages, with an excerpt (first line unless allowed). */
    async notionSearch(userId: number, query: string): Promise<NotionAnswer> {
      const row = await access.connectedRow(userId, 'notion');
      if (!row) return { connected: false, pages: [] };
      const full = accounts.settingsOf(row).includeFullContent;
      const notion = access.notionOf(row);
      const pages = await access.onProvider(row, async () => {
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
  };
}
