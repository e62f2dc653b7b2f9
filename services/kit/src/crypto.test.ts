import { describe, expect, it } from 'vitest';
import { createFieldCipher, DecryptionError, generateKey, keyIdOf } from './crypto';

describe('field encryption', () => {
  const key = generateKey();
  const cipher = createFieldCipher(key);

  it('round-trips text, and never stores the plaintext', () => {
    const value = cipher.encrypt('I felt calm after the walk 🌿', 'thought.content');
    expect(value).toMatch(/^enc1\.[0-9a-f]{8}\./);
    expect(value).not.toContain('calm');
    expect(cipher.decrypt(value, 'thought.content')).toBe('I felt calm after the walk 🌿');
  });

  it('uses a fresh IV each time', () => {
    expect(cipher.encrypt('same')).not.toBe(cipher.encrypt('same'));
  });

  it('rejects a value with any flipped byte', () => {
    const value = cipher.encrypt('secret text');
    const [prefix, kid, payload] = value.split('.');
    const raw = Buffer.from(payload!, 'base64');
    for (const index of [0, 12, 20, raw.length - 1]) {
      const tampered = Buffer.from(raw);
      tampered[index] = tampered[index]! ^ 0x01;
      expect(() => cipher.decrypt(`${prefix}.${kid}.${tampered.toString('base64')}`)).toThrow(
        DecryptionError,
      );
    }
  });

  it('rejects a value moved to another context (AAD)', () => {
    const value = cipher.encrypt('token', 'integration.accessToken');
    expect(() => cipher.decrypt(value, 'thought.content')).toThrow(DecryptionError);
  });

  it('reads values written with an old key after rotation, and writes with the new one', () => {
    const oldValue = cipher.encrypt('written before rotation');
    const next = generateKey();
    const rotated = createFieldCipher(next, [key]);
    expect(rotated.decrypt(oldValue)).toBe('written before rotation');
    expect(rotated.encrypt('x').split('.')[1]).toBe(keyIdOf(Buffer.from(next, 'base64')));
    expect(() => createFieldCipher(next).decrypt(oldValue)).toThrow(/Unknown encryption key/);
  });

  it('round-trips bytes (audio)', () => {
    const audio = Buffer.from([0, 1, 2, 250, 255]);
    expect(cipher.decryptBytes(cipher.encryptBytes(audio, 'audio'), 'audio').equals(audio)).toBe(true);
  });
});
