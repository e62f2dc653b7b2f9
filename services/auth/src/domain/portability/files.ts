import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { deriveKey } from '@haven/kit/keys';

/**
 * The zips of exports and imports, kept under DATA_DIR encrypted (AES-256-GCM) with a key derived
 * for that one transfer from the data key, so a copied file reads as nothing.
 */
export function createTransferFiles(dataDir: string, dataKey: string) {
  const dir = path.join(dataDir, 'transfers');
  mkdirSync(dir, { recursive: true });
  const keyOf = (id: string) => deriveKey(dataKey, `transfer:${id}`);
  return {
    pathOf: (id: string) => path.join(dir, `${id}.zip.enc`),
    /** A cipher stream for a new file, and its nonce. */
    encrypter(id: string) {
      const iv = randomBytes(12);
      return { iv: iv.toString('base64'), cipher: createCipheriv('aes-256-gcm', keyOf(id), iv) };
    },
    decrypter(id: string, iv: string, tag: string) {
      const decipher = createDecipheriv('aes-256-gcm', keyOf(id), Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return decipher;
    },
    remove: (id: string) => rm(path.join(dir, `${id}.zip.enc`), { force: true }),
  };
}
export type TransferFiles = ReturnType<typeof createTransferFiles>;
