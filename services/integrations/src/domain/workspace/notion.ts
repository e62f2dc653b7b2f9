import { APIResponseError, type Client } from '@notionhq/client';
import type { NotionPage } from '@haven/contracts/workspace';

/** Notion says the token no longer works. */
/**
 * Notion refuses what the integration may not do (`restricted_resource`: a capability the user
 * did not give it, as reading content).
 */
export const notionRestricted = (err: unknown): boolean =>
  APIResponseError.isAPIResponseError(err) && err.code === 'restricted_resource';

export function notionGrantLost(err: unknown): boolean {
  return APIResponseError.isAPIResponseError(err) && (err.status === 401 || err.code === 'unauthorized');
}

type SearchResult = Awaited<ReturnType<Client['search']>>['results'][number];

/** The page's title (its title property's text), or 'Untitled'. */
function titleOf(result: SearchResult): string {
  const properties = (
    result as { properties?: Record<string, { type: string; title?: Array<{ plain_text: string }> }> }
  ).properties;
  const title = Object.values(properties ?? {}).find((p) => p.type === 'title')?.title;
  return (
    title
      ?.map((t) => t.plain_text)
      .join('')
      .trim() || 'Untitled'
  );
}

function pageOf(result: SearchResult): NotionPage | null {
  if (result.object !== 'page') return null;
  const page = result as { id: string; url?: string; last_edited_time?: string };
  return {
    id: page.id,
    title: titleOf(result),
    url: page.url ?? '',
    lastEdited: page.last_edited_time ?? new Date(0).toISOString(),
  };
}

/** Pages the integration can see, most recently edited first (or best matches for `query`). */
export async function searchPages(notion: Client, query?: string, size = 20): Promise<NotionPage[]> {
  const found = await notion.search({
    ...(query ? { query } : {}),
    filter: { property: 'object', value: 'page' },
    sort: { direction: 'descending', timestamp: 'last_edited_time' },
    page_size: size,
  });
  return found.results.map(pageOf).filter((p): p is NotionPage => p !== null);
}

/** The first lines of a page's text (paragraphs, headings, list items), at most `chars`. */
export async function excerptOf(notion: Client, pageId: string, chars = 300): Promise<string> {
  const blocks = await notion.blocks.children.list({ block_id: pageId, page_size: 25 });
  const lines: string[] = [];
  for (const block of blocks.results) {
    const typed = block as unknown as Record<string, { rich_text?: Array<{ plain_text: string }> }> & {
      type?: string;
    };
    const text = typed.type ? typed[typed.type]?.rich_text?.map((t) => t.plain_text).join('') : undefined;
    if (text?.trim()) lines.push(text.trim());
    if (lines.join('\n').length >= chars) break;
  }
  return lines.join('\n').slice(0, chars);
}

/** Notion takes at most 2000 characters per text object and 100 blocks per request. */
export function paragraphs(content: string) {
  const chunks: string[] = [];
  for (const para of content.split(/\n{2,}/)) {
    for (let i = 0; i < para.length; i += 2000) chunks.push(para.slice(i, i + 2000));
  }
  return chunks.slice(0, 100).map((text) => ({
    object: 'block' as const,
    type: 'paragraph' as const,
    paragraph: { rich_text: [{ type: 'text' as const, text: { content: text } }] },
  }));
}
