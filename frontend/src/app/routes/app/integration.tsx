import { useEffect } from 'react';
import { Navigate, useParams } from 'react-router-dom';

import { ScreenTabBar } from '@/app/routes/app/screen-tab-bar';
import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';
import { IntegrationDetail } from '@/features/integrations/components/integration-detail';
import { catalogEntry } from '@/features/integrations/lib/catalog';
import { toast } from '@/hooks/use-toast';

/** One integration's detail page, `/integrations/:provider/:type`, with the tab bar and capture. */
export function IntegrationRoute() {
  const { provider = '', type = '' } = useParams();
  const entry = catalogEntry(provider, type);
  useEffect(() => {
    if (!entry) toast({ title: 'Integration not found', variant: 'destructive' });
  }, [entry]);
  if (!entry) return <Navigate to={paths.integrations.path} replace />;
  return (
    <>
      <SimplePage
        backTo={paths.integrations.path}
        title={entry.name}
        className="pb-[calc(6rem+env(safe-area-inset-bottom))]"
      >
        <IntegrationDetail entry={entry} />
      </SimplePage>
      <ScreenTabBar />
    </>
  );
}
