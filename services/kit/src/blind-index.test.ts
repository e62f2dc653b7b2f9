import { describe, expect, it } from 'vitest';
import { createBlindIndex } from './blind-index';
import { generateKey } from './crypto';

describe('blind index', () => {
  const secret = generateKey();
  const index = createBlindIndex(secret, 'tag-index');

  it('gives the same 64-hex token for the same value, and never contains it', () => {
    expect(index('7:garden')).toMatch(/^[0-9a-f]{64}$/);
    expect(index('7:garden')).toBe(index('7:garden'));
    expect(index('7:garden')).not.toContain('garden');
  });

  it('gives different tokens for other values, purposes and secrets', () => {
    const token = index('7:garden');
    expect(index('8:garden')).not.toBe(token);
    expect(createBlindIndex(secret, 'other-purpose')('7:garden')).not.toBe(token);
    expect(createBlindIndex(generateKey(), 'tag-index')('7:garden')).not.toBe(token);
  });
});
