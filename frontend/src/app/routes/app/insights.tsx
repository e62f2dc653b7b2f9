import { PageHeader } from '@/components/layouts/page-header';

/** The insights tab, reached at both /home and /insights. */
export function InsightsRoute() {
  return <PageHeader title="Insights" />;
}
