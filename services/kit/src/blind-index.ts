import { createHmac } from 'node:crypto';
import { deriveKey } from './keys';

/**
 * A keyed blind index: HMAC-SHA256 of a value, in hex, under a key derived for one purpose. Equal
 * values give equal tokens, so a column of them can be matched with `=` or `@>` while the value
 * itself stays encrypted; without the key a token cannot be checked against guesses. Callers put
 * whatever scopes a token (the owner's id) and their normalisation into `value`.
 */
export type BlindIndex = (value: string) => string;

/** A blind index keyed by `deriveKey(secret, purpose)`: a new secret gives entirely new tokens. */
export function createBlindIndex(secret: string, purpose: string): BlindIndex {
  const key = deriveKey(secret, purpose);
  return (value) => createHmac('sha256', key).update(value, 'utf8').digest('hex');
}
