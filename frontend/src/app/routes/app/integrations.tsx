import { PageHeader } from '@/components/layouts/page-header';
import { IntegrationList } from '@/features/integrations/components/integration-list';

export function IntegrationsRoute() {
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title="Integrations" />
      <IntegrationList />
    </div>
  );
}
