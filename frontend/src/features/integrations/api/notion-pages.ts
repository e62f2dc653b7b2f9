import { workspaceContract, type NotionAnswer } from '@haven/contracts/workspace';
import { useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api';

/** Pages the Notion integration can see, best matches for `q` first. */
export function getNotionPages(q: string): Promise<NotionAnswer> {
  return api(workspaceContract.notionPages, { query: q ? { q } : {} });
}

export function useNotionPages(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['notion', 'pages', q],
    queryFn: () => getNotionPages(q),
    enabled,
    staleTime: 30_000,
  });
}
