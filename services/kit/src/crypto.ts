import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'enc1';

/** Thrown when a value cannot be decrypted: unknown key, wrong format, or tampered with. */
export class DecryptionError extends Error {
  override name = 'DecryptionError';
}

/** Encrypts and decrypts single fields (AES-256-GCM) with the key id stored in each value. */
export interface FieldCipher {
  /** `enc1.<keyId>.<base64 iv|tag|ciphertext>`. `context` (e.g. 'thought.content') is bound as AAD. */
  encrypt(plaintext: string, context?: string): string;
  decrypt(value: string, context?: string): string;
  encryptBytes(data: Buffer, context?: string): string;
  decryptBytes(value: string, context?: string): Buffer;
  readonly currentKeyId: string;
}

/** A key's id: the first 8 hex digits of its SHA-256, so ids need no configuration of their own. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

function decodeKey(base64: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error('An encryption key must be 32 bytes in base64');
  return key;
}

/**
 * Builds the cipher from the current key and any older keys still needed to read existing values.
 * New values are always written with the current key.
 */
export function createFieldCipher(currentKey: string, oldKeys: string[] = []): FieldCipher {
  const current = decodeKey(currentKey);
  const currentKeyId = keyIdOf(current);
  const keys = new Map<string, Buffer>([[currentKeyId, current]]);
  for (const k of oldKeys) {
    const key = decodeKey(k);
    keys.set(keyIdOf(key), key);
  }

  const encryptBytes = (data: Buffer, context = ''): string => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, current, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(data), cipher.final()]);
    return `${PREFIX}.${currentKeyId}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  };

  const decryptBytes = (value: string, context = ''): Buffer => {
    const [prefix, keyId, payload, extra] = value.split('.');
    if (prefix !== PREFIX || !keyId || !payload || extra !== undefined)
      throw new DecryptionError('Not an encrypted value');
    const key = keys.get(keyId);
    if (!key) throw new DecryptionError(`Unknown encryption key ${keyId}`);
    const raw = Buffer.from(payload, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new DecryptionError('Encrypted value is truncated');
    try {
      const decipher = createDecipheriv(ALGORITHM, key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new DecryptionError('Encrypted value failed its integrity check');
    }
  };

  return {
    currentKeyId,
    encryptBytes,
    decryptBytes,
    encrypt: (plaintext, context) => encryptBytes(Buffer.from(plaintext, 'utf8'), context),
    decrypt: (value, context) => decryptBytes(value, context).toString('utf8'),
  };
}

/** A fresh key for DATA_ENCRYPTION_KEY. */
export function generateKey(): string {
  return randomBytes(32).toString('base64');
}
