import { SimplePage } from '@/components/layouts/simple-page';
import { DirectCallback } from '@/features/integrations/components/direct-callback';

/** Where the provider sends the browser back after a direct OAuth flow. */
export function DirectCallbackRoute() {
  return (
    <SimplePage title="Integration Setup">
      <DirectCallback />
    </SimplePage>
  );
}
