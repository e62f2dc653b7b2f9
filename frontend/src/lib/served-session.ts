/**
 * The gateway marks the page it serves to a valid session (`<meta name="haven-signed-in">`; the
 * service worker's cached copy never has it). Until the app's own session check answers, that is
 * enough to start a signed-in screen's data; from then on, the check's answer counts.
 */
import { SIGNED_IN_META_NAME } from '@haven/contracts/spa';

const SELECTOR = `meta[name="${SIGNED_IN_META_NAME}"]`;

/** Whether the page was served signed in and the app's own session check has not answered yet. */
export function servedSignedIn(): boolean {
  return document.querySelector(SELECTOR) !== null;
}

/** The app's own session check has answered (whatever it said): the page's mark no longer counts. */
export function forgetServedSession(): void {
  document.querySelector(SELECTOR)?.remove();
}
