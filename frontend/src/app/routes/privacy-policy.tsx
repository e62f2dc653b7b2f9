import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';

/** Placeholder: the ten policy sections come in a later issue. */
export function PrivacyPolicyRoute() {
  return (
    <SimplePage
      backTo={paths.welcome.path}
      title="Privacy Policy"
      description="Last updated April 19, 2025"
    />
  );
}
