import { SimplePage } from '@/components/layouts/simple-page';

/** Where the provider sends the browser back after a direct OAuth flow. */
export function DirectCallbackRoute() {
  return <SimplePage title="Integration Setup" />;
}
