/** Spec 8: why a verification link failed, by the `reason` the server's redirect carries. */
const REASON_MESSAGES: Record<string, string> = {
  invalid_token: 'Invalid verification link. Please request a new verification email.',
  expired_token: 'Your verification link has expired. Please request a new verification email.',
  user_not_found: 'User not found. Please register again or contact support.',
  update_failed: 'Failed to verify email due to a server error. Please try again later.',
};

export const UNKNOWN_REASON_MESSAGE = 'Verification failed. Please try again or contact support.';

/** The link opened without a token (or any outcome). */
export const NO_TOKEN_MESSAGE = 'Invalid verification link. Please check your email and try again.';

export function verifyLinkReasonMessage(reason: string | null): string {
  return (
    (reason && Object.hasOwn(REASON_MESSAGES, reason) && REASON_MESSAGES[reason]) || UNKNOWN_REASON_MESSAGE
  );
}
