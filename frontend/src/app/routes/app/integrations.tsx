import { PageHeader } from '@/components/layouts/page-header';

export function IntegrationsRoute() {
  return <PageHeader title="Integrations" />;
}
