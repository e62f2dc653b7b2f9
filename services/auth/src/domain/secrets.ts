import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** OWASP's argon2id baseline (19 MiB, 2 passes): about 30 ms here, and off the event loop. */
// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const ARGON2 = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the account does not exist, so timing does not reveal that. */
let decoy: Promise<string> | undefined;
export async function verifyAgainstDecoy(password: string): Promise<void> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await decoy, password);
}

/** A 6-digit numeric code, uniformly random. */
export function newVerificationCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Codes have only a million values, so they are hashed with a server secret (HMAC) and bound to the
 * e-mail: a stolen table does not yield codes by brute force.
 */
export function hashCode(key: Buffer, email: string, code: string): string {
  return createHmac('sha256', key).update(`verification:${email}:${code}`).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A link token (256 bits) for the e-mail and the value stored for it. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/** High-entropy tokens need no secret: a plain SHA-256 is enough to keep them out of the database. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
