import type { Integration } from '@haven/contracts/integrations';
import { FileText } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { useUpdateIntegrationSettings } from '../api/manage-integration';
import { useNotionPages } from '../api/notion-pages';

/**
 * Where 'Save to Notion' writes: a page the user picks once from those the integration can see.
 * (Notion shares with the integration only the pages chosen on its consent screen.)
 */
export function NotionPageSetting({ integration }: { integration: Integration }) {
  const [picking, setPicking] = useState(!integration.settings.parentPageId);
  const [q, setQ] = useState('');
  const pages = useNotionPages(q.trim(), picking);
  const save = useUpdateIntegrationSettings({
    mutationConfig: {
      onSuccess: () => {
        toast({ title: 'Settings saved' });
        setPicking(false);
      },
      onError: (error) =>
        toast({
          title: 'Failed to save settings',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });
  const current = integration.settings.parentPageTitle;

  return (
    <section aria-label="Save to Notion" className="flex flex-col gap-2 border-t border-border pt-4">
      <h3 className="text-sm font-medium">Save to Notion</h3>
      <p className="text-xs text-muted-foreground">Insights and conversations you save go under this page.</p>
      {current && !picking ? (
        <div className="flex items-center justify-between gap-2 text-sm">
          <span className="flex min-w-0 items-center gap-2">
            <FileText aria-hidden className="size-4 shrink-0" />
            <span className="truncate">{current}</span>
          </span>
          <Button variant="outline" size="sm" onClick={() => setPicking(true)}>
            Change
          </Button>
        </div>
      ) : (
        <>
          <Label htmlFor="notion-page-search" className="sr-only">
            Search pages
          </Label>
          <Input
            id="notion-page-search"
            placeholder="Search pages"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
          {pages.isPending ? (
            <Skeleton className="h-20 w-full" />
          ) : pages.isError ? (
            <p className="text-sm text-destructive">{getErrorMessage(pages.error)}</p>
          ) : pages.data.pages.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              No pages found. Share a page with Haven in Notion, then search again.
            </p>
          ) : (
            <ul className="flex max-h-48 flex-col overflow-y-auto" aria-label="Notion pages">
              {pages.data.pages.map((page) => (
                <li key={page.id}>
                  <button
                    type="button"
                    disabled={save.isPending}
                    className="flex min-h-11 w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-muted"
                    onClick={() =>
                      save.mutate({
                        id: integration.id,
                        patch: { settings: { parentPageId: page.id, parentPageTitle: page.title } },
                      })
                    }
                  >
                    <FileText aria-hidden className="size-4 shrink-0" />
                    <span className="truncate">{page.title}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
