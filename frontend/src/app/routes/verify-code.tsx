import { useSearchParams } from 'react-router-dom';

import { SimplePage } from '@/components/layouts/simple-page';
import { StatusMessage } from '@/components/status-message';
import { BackToRegistrationLink } from '@/features/auth/components/back-to-registration-link';
import { VerifyCodePanel } from '@/features/auth/components/verify-code-panel';

/** `/verify-code?email=`: the second step of registration. */
export function VerifyCodeRoute() {
  const email = useSearchParams()[0].get('email')?.trim() ?? '';

  if (!email) {
    return (
      <SimplePage title="Verify Your Email">
        <StatusMessage
          tone="error"
          title="Email Missing"
          actions={<BackToRegistrationLink variant="default" />}
        >
          No email provided. Please return to registration.
        </StatusMessage>
      </SimplePage>
    );
  }

  return (
    <SimplePage title="Verify Your Email">
      <VerifyCodePanel email={email} />
    </SimplePage>
  );
}
