import { hkdfSync } from 'node:crypto';

/**
 * A key for one purpose, derived from a configured secret with HKDF-SHA256 and a label, so one
 * secret never serves two purposes: the verification-code HMAC key tells nothing about the cookie
 * signing key it was derived from, and vice versa.
 */
export function deriveKey(secret: string, purpose: string, bytes = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'haven', `haven:${purpose}`, bytes));
}
