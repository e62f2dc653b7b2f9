import { SimplePage } from '@/components/layouts/simple-page';

/** Placeholder for the 6-digit code entry. */
export function VerifyCodeRoute() {
  return <SimplePage title="Verify Your Email" />;
}
