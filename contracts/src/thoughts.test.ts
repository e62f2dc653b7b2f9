import { describe, expect, it } from 'vitest';
import { CreateThoughtBody, IdsQuery, RangeQuery, Tags, UpdateThoughtBody } from './thoughts';

const messages = (r: { error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('Tags', () => {
  it('trims and de-duplicates (case-insensitively, first spelling wins)', () => {
    expect(Tags.parse([' work ', 'Work', 'health', 'work', 'Health '])).toEqual(['work', 'health']);
  });

  it('rejects blank tags, a 41-character tag and a 21st tag', () => {
    expect(messages(Tags.safeParse(['ok', '   ']))).toEqual(['Tags cannot be blank']);
    expect(Tags.safeParse(['a'.repeat(40)]).success).toBe(true);
    expect(messages(Tags.safeParse(['a'.repeat(41)]))).toEqual(['Tags must be at most 40 characters']);
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect(Tags.safeParse(twenty).success).toBe(true);
    expect(messages(Tags.safeParse([...twenty, 't20']))).toEqual(['At most 20 tags']);
  });

  it('rejects a NUL character in a tag', () => {
    expect(messages(Tags.safeParse(['ok', 'bad\u0000tag']))).toEqual([
      'Text must not contain NUL characters',
    ]);
    expect(UpdateThoughtBody.safeParse({ tags: ['\u0000'] }).success).toBe(false);
  });
});

describe('RangeQuery', () => {
  it('accepts start/end and startDate/endDate, giving { start, end }', () => {
    expect(RangeQuery.parse({ start: '2025-01-01', end: '2025-01-07' })).toEqual({
      start: '2025-01-01',
      end: '2025-01-07',
    });
    expect(RangeQuery.parse({ startDate: '2025-01-01', endDate: '2025-01-31', t: '1736000000000' })).toEqual({
      start: '2025-01-01',
      end: '2025-01-31',
    });
    expect(RangeQuery.parse({ start: '2025-01-05', end: '2025-01-05' })).toEqual({
      start: '2025-01-05',
      end: '2025-01-05',
    });
  });

  it('rejects a reversed or incomplete range and bad dates', () => {
    expect(messages(RangeQuery.safeParse({ start: '2025-02-01', end: '2025-01-31' }))).toEqual([
      'The start date must not be after the end date',
    ]);
    expect(RangeQuery.safeParse({ start: '2025-01-01' }).success).toBe(false);
    expect(RangeQuery.safeParse({}).success).toBe(false);
    expect(RangeQuery.safeParse({ start: '2025-02-30', end: '2025-03-01' }).success).toBe(false);
  });
});

describe('IdsQuery', () => {
  it('parses a comma list into unique numbers', () => {
    expect(IdsQuery.parse({ ids: '3,1, 2,3' })).toEqual({ ids: [3, 1, 2] });
  });

  it('rejects junk, zero, empty and more than 200 ids', () => {
    for (const ids of ['', '1,,2', '1,a', '0', '-1', '1.5', '2147483648']) {
      expect(IdsQuery.safeParse({ ids }).success, ids).toBe(false);
    }
    const many = Array.from({ length: 201 }, (_, i) => i + 1).join(',');
    expect(messages(IdsQuery.safeParse({ ids: many }))).toEqual(['At most 200 ids per request']);
    expect(IdsQuery.parse({ ids: Array.from({ length: 200 }, (_, i) => i + 1).join(',') }).ids).toHaveLength(
      200,
    );
  });
});

describe('CreateThoughtBody', () => {
  it('applies defaults and trims content', () => {
    expect(CreateThoughtBody.parse({ content: '  hello  ' })).toEqual({
      content: 'hello',
      category: 'personal',
      isVoice: false,
    });
  });

  it('blocks empty content with the capture message and checks the offset', () => {
    expect(messages(CreateThoughtBody.safeParse({ content: '   ' }))).toEqual([
      'Please say or enter some text before submitting',
    ]);
    expect(CreateThoughtBody.safeParse({ content: 'x', timezoneOffset: 841 }).success).toBe(false);
    expect(CreateThoughtBody.safeParse({ content: 'x'.repeat(10_001) }).success).toBe(false);
    expect(CreateThoughtBody.safeParse({ content: 'x', category: 'habits' }).success).toBe(false);
  });

  it('bounds the local day of clientDate, seen from timezoneOffset, to the years 1..9999', () => {
    const localDay = (clientDate: string, timezoneOffset?: number) =>
      CreateThoughtBody.safeParse({ content: 'x', clientDate, timezoneOffset });
    for (const [clientDate, offset] of [
      ['0000-01-01T00:00:00Z', 0],
      ['0000-12-31T23:59:59Z', undefined],
      ['0001-01-01T00:30:00Z', 60], // 23:30 on 31 December of year 0, an hour west of UTC
      ['9999-12-31T23:59:59Z', -840], // already 10000-01-01 at UTC+14
      ['9999-12-31T10:00:00Z', -840],
    ] as const) {
      const result = localDay(clientDate, offset);
      expect(
        result.error?.issues.map((i) => i.path),
        `${clientDate} ${offset}`,
      ).toEqual([['clientDate']]);
    }
    for (const [clientDate, offset] of [
      ['0001-01-01T00:00:00Z', 0],
      ['0001-01-01T00:30:00Z', -60],
      ['9999-12-31T23:59:59Z', 0],
      ['9999-12-31T09:59:59Z', -840],
    ] as const) {
      expect(localDay(clientDate, offset).success, `${clientDate} ${offset}`).toBe(true);
    }
  });
});

describe('UpdateThoughtBody', () => {
  it('needs at least one known field', () => {
    expect(UpdateThoughtBody.safeParse({}).success).toBe(false);
    expect(UpdateThoughtBody.safeParse({ content: 'x', userId: 2 }).success).toBe(false);
    expect(UpdateThoughtBody.parse({ tags: ['a', 'a'] })).toEqual({ tags: ['a'] });
  });
});
