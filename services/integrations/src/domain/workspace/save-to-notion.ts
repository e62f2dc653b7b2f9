import type { CreatedPage, NotionAnswer, NotionPageDraft } from '@haven/contracts/workspace';
import { conflict, notConnected } from '@haven/kit/errors';
import type { Accounts } from '../accounts';
import { paragraphs, searchPages } from './notion';
import type { WorkspaceAccess } from './workspace-access';
import { WORKSPACE_MESSAGES } from './workspace-problems';

/** 'Save to Notion': the pages to choose from, and a new page under the one chosen. */
export function saveToNotion({ accounts, access }: { accounts: Accounts; access: WorkspaceAccess }) {
  return {
    /** Pages to choose from (where 'Save to Notion' writes). */
    async notionPages(userId: number, query?: string): Promise<NotionAnswer> {
      const row = await access.connectedRow(userId, 'notion');
      if (!row) throw notConnected(WORKSPACE_MESSAGES.noNotion);
      return {
        connected: true,
        pages: await access.onProvider(row, () => searchPages(access.notionOf(row), query, 20)),
      };
    },

    /** Creates a page with `content` under the page the user chose once. */
    async saveToNotion(userId: number, draft: NotionPageDraft): Promise<CreatedPage> {
      const row = await access.connectedRow(userId, 'notion');
      if (!row) throw notConnected(WORKSPACE_MESSAGES.noNotion);
      const parent = accounts.settingsOf(row).parentPageId;
      if (!parent) throw conflict(WORKSPACE_MESSAGES.noParent);
      const created = await access.onProvider(row, () =>
        access.notionOf(row).pages.create({
          parent: { page_id: parent },
          properties: { title: { title: [{ type: 'text', text: { content: draft.title } }] } },
          children: paragraphs(draft.content),
        }),
      );
      return { id: created.id, url: (created as { url?: string }).url ?? '' };
    },
  };
}
