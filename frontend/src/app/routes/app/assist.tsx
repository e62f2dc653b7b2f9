import { PageHeader } from '@/components/layouts/page-header';

export function AssistRoute() {
  return <PageHeader title="Assist" />;
}
