import { useParams } from 'react-router-dom';

import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One integration's detail page, `/integrations/:provider/:type`. */
export function IntegrationRoute() {
  const { provider = '', type = '' } = useParams();
  return (
    <SimplePage backTo={paths.integrations.path} title={`${capitalize(provider)} ${capitalize(type)}`} />
  );
}
