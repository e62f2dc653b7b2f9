import { describe, expect, it } from 'vitest';
import { createDuplicateKeys, keysetPage, markNew } from './portability';

describe('portability helpers', () => {
  it('pages by id with the next cursor only when there is more', () => {
    const rows = [{ id: 3 }, { id: 5 }, { id: 9 }];
    expect(keysetPage(rows, 2)).toEqual({ items: [{ id: 3 }, { id: 5 }], next: 5 });
    expect(keysetPage(rows, 3)).toEqual({ items: rows, next: null });
  });

  it('keys duplicates per owner and per part boundary', () => {
    const keys = createDuplicateKeys('k'.repeat(44), 'test');
    expect(keys(1, ['a', 'bc'])).toBe(keys(1, ['a', 'bc']));
    expect(keys(1, ['a', 'bc'])).not.toBe(keys(1, ['ab', 'c']));
    expect(keys(1, ['a', null])).not.toBe(keys(1, ['a', '-']));
    expect(keys(1, ['a'])).not.toBe(keys(2, ['a']));
    expect(createDuplicateKeys('x'.repeat(44), 'test')(1, ['a'])).not.toBe(keys(1, ['a']));
  });

  it('marks items already there or repeated in the batch', () => {
    const existing = new Set(['b']);
    expect(markNew(['a', 'b', 'a', 'c'], (x) => x, existing)).toEqual([true, false, false, true]);
    expect(existing).toEqual(new Set(['a', 'b', 'c']));
  });
});
