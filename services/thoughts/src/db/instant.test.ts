import { describe, expect, it } from 'vitest';
import { instantFromPostgres } from './instant';

describe('instantFromPostgres', () => {
  it('reads every year as written, fractions and offsets included', () => {
    const cases: Array<[string, string]> = [
      ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
      ['0099-06-15 12:30:00.123+00', '0099-06-15T12:30:00.123Z'],
      ['2026-11-28 14:00:00.123456+00', '2026-11-28T14:00:00.123Z'],
      ['2026-11-28 14:00:00+05:30', '2026-11-28T08:30:00.000Z'],
      ['1900-01-01 00:00:00-00:09:21', '1900-01-01T00:09:21.000Z'],
      ['9999-12-31 23:59:59.999+00', '9999-12-31T23:59:59.999Z'],
    ];
    for (const [text, iso] of cases) expect(instantFromPostgres(text).toISOString(), text).toBe(iso);
  });

  it('refuses what is not a timestamp rather than guess', () => {
    for (const text of ['infinity', '0044-03-15 12:00:00+00 BC', '2026-11-28'])
      expect(() => instantFromPostgres(text)).toThrow(/Not a PostgreSQL timestamp/);
  });
});
