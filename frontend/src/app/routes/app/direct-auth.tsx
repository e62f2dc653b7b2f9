import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';
import { DirectAuth } from '@/features/integrations/components/direct-auth';

/** Fallback OAuth link generator for the mail and calendar provider. */
export function DirectAuthRoute() {
  return (
    <SimplePage backTo={paths.integrations.path} title="Direct Authentication">
      <DirectAuth />
    </SimplePage>
  );
}
