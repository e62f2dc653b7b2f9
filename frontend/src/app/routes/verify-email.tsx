import { useSearchParams } from 'react-router-dom';

import { SimplePage } from '@/components/layouts/simple-page';
import { VerifyLinkFailure, VerifyLinkSuccess } from '@/features/auth/components/verify-link-result';
import { VerifyLinkToken } from '@/features/auth/components/verify-link-token';
import { NO_TOKEN_MESSAGE, verifyLinkReasonMessage } from '@/features/auth/lib/verify-link-messages';

/**
 * Where the e-mailed link lands: the server redirects here with `?success=true` or
 * `?error=true&reason=...`; a bare `?token=` is verified from this page.
 */
export function VerifyEmailRoute() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim();

  let content;
  if (params.has('success')) content = <VerifyLinkSuccess />;
  else if (params.has('error'))
    content = <VerifyLinkFailure message={verifyLinkReasonMessage(params.get('reason'))} />;
  else if (token) content = <VerifyLinkToken token={token} />;
  else content = <VerifyLinkFailure message={NO_TOKEN_MESSAGE} />;

  return <SimplePage title="Email Verification">{content}</SimplePage>;
}
