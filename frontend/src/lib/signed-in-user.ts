import { createContext, use } from 'react';

/**
 * The id of the signed-in user, provided by the app's signed-in layout, for what a feature keeps on
 * this device per user (drafts, the last capture mode) without importing the auth feature.
 */
export const SignedInUserContext = createContext<number | null>(null);

/** The signed-in user's id, or null outside the signed-in screens. */
export function useSignedInUserId(): number | null {
  return use(SignedInUserContext);
}
