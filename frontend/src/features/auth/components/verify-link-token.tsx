import { useEffect, useRef } from 'react';

import { StatusMessage } from '@/components/status-message';
import { useStartVerifiedSession, useVerifyEmail } from '@/features/auth/api/verify-email';
import { VerifyLinkFailure, VerifyLinkSuccess } from '@/features/auth/components/verify-link-result';
import { UNKNOWN_REASON_MESSAGE } from '@/features/auth/lib/verify-link-messages';
import { getErrorMessage } from '@/lib/api';

/** A link that carries its token here: posts it once, then shows verified or failed. */
export function VerifyLinkToken({ token }: { token: string }) {
  const verify = useVerifyEmail();
  const startSession = useStartVerifiedSession();
  const { mutate } = verify;
  // A token is single-use: StrictMode's second effect run must not post it again and then fail.
  const postedToken = useRef<string | null>(null);

  useEffect(() => {
    if (postedToken.current === token) return;
    postedToken.current = token;
    mutate({ token }, { onSuccess: startSession });
  }, [token, mutate, startSession]);

  if (verify.isSuccess) return <VerifyLinkSuccess />;
  if (verify.isError)
    return <VerifyLinkFailure message={getErrorMessage(verify.error, UNKNOWN_REASON_MESSAGE)} />;
  return (
    <StatusMessage tone="pending" title="Verifying your email…">
      This only takes a moment.
    </StatusMessage>
  );
}
