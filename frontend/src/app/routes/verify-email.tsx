import { SimplePage } from '@/components/layouts/simple-page';

/** Placeholder for the link-based verification landing. */
export function VerifyEmailRoute() {
  return <SimplePage title="Email Verification" />;
}
