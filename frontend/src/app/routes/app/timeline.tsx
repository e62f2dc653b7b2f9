import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';

export function TimelineRoute() {
  return <SimplePage backTo={paths.home.path} title="All Thoughts" />;
}
