import { describe, expect, it } from 'vitest';
import { dateFromFileName, inTimeZone, parseDateValue } from './dates';

describe('parseDateValue', () => {
  it.each([
    ['2021-02-26', '2021-02-26T12:00:00.000Z', '2021-02-26'],
    ['2021/02/26', '2021-02-26T12:00:00.000Z', '2021-02-26'],
    ['2019-05-01 16:54', '2019-05-01T16:54:00.000Z', '2019-05-01'],
    ['2019-05-01T16:54:00Z', '2019-05-01T16:54:00.000Z', '2019-05-01'],
    ['2019-05-01 16:54-07:00', '2019-05-01T23:54:00.000Z', '2019-05-01'],
    // The day as written, not the UTC day.
    ['2023-01-01T23:30:00-05:00', '2023-01-02T04:30:00.000Z', '2023-01-01'],
    ['2023-01-01T00:30:00+09:00', '2022-12-31T15:30:00.000Z', '2023-01-01'],
    ['2025-07-22 17:30:44Z', '2025-07-22T17:30:44.000Z', '2025-07-22'],
    ['2021-08-07T17:03:33.725Z', '2021-08-07T17:03:33.725Z', '2021-08-07'],
    ['Tue, 02 Jan 2024 10:30:00 +0100', '2024-01-02T09:30:00.000Z', '2024-01-02'],
    ['2 Jan 2024', '2024-01-02T12:00:00.000Z', '2024-01-02'],
    ['01-01-2024 01:23 AM', '2024-01-01T01:23:00.000Z', '2024-01-01'],
    ['02-01-2024 04:56 PM', '2024-01-02T16:56:00.000Z', '2024-01-02'],
    ['Feb 26th, 2021', '2021-02-26T12:00:00.000Z', '2021-02-26'],
    ['[[Feb 26th, 2021]]', '2021-02-26T12:00:00.000Z', '2021-02-26'],
    ['20240102T103000Z', '2024-01-02T10:30:00.000Z', '2024-01-02'],
    ['1609244764756', '2020-12-29T12:26:04.756Z', '2020-12-29'],
  ])('reads %s', (value, date, localDate) => {
    expect(parseDateValue(value)).toEqual({ date, localDate });
  });

  it('reads epoch numbers in seconds and milliseconds', () => {
    expect(parseDateValue(1609244764)?.date).toBe('2020-12-29T12:26:04.000Z');
    expect(parseDateValue(1609244764756)?.date).toBe('2020-12-29T12:26:04.756Z');
  });

  it('keeps the day of a Date a YAML 1.1 parser made from a bare date', () => {
    expect(parseDateValue(new Date('2021-02-26T00:00:00Z'))).toEqual({
      date: '2021-02-26T12:00:00.000Z',
      localDate: '2021-02-26',
    });
    expect(parseDateValue(new Date('2021-02-26T08:15:00Z'))?.date).toBe('2021-02-26T08:15:00.000Z');
  });

  it.each(['{{date}}', '<% tp.date.now() %>', '', '2021-02-30', '2021-13-01', 'soon', 2021, null])(
    'refuses %s',
    (value) => expect(parseDateValue(value)).toBeNull(),
  );
});

describe('dateFromFileName', () => {
  it.each([
    ['2021_02_26.md', '2021-02-26T12:00:00.000Z'],
    ['2021.02.26 note.md', '2021-02-26T12:00:00.000Z'],
    ['2021-02-26 14.05 Walk.md', '2021-02-26T14:05:00.000Z'],
    ['2023-09-12 Meeting with Steph.md', '2023-09-12T12:00:00.000Z'],
    ['Walk on 2021-02-26.txt', '2021-02-26T12:00:00.000Z'],
  ])('reads %s', (name, date) => expect(dateFromFileName(name)?.date).toBe(date));

  it.each(['2021-02-30.md', '12021-02-26.md', 'Notes 2021.md', 'v1.2.3.md'])('finds none in %s', (name) =>
    expect(dateFromFileName(name)).toBeNull(),
  );
});

describe('inTimeZone', () => {
  it('gives the day of the zone the entry was written in', () => {
    const at = new Date('2023-01-02T04:30:00Z');
    expect(inTimeZone(at, 'America/New_York')?.localDate).toBe('2023-01-01');
    expect(inTimeZone(at, 'Asia/Tokyo')?.localDate).toBe('2023-01-02');
    expect(inTimeZone(at, 'Not/AZone')?.localDate).toBe('2023-01-02');
  });
});

describe('dateFromFileName over the centuries', () => {
  it.each([
    ['1660-01-01.md', '1660-01-01'],
    ['1000-06-15 Chronicle.md', '1000-06-15'],
    ['2999-12-31.md', '2999-12-31'],
    ['1899_07_04.md', '1899-07-04'],
  ])('reads %s', (name, day) => expect(dateFromFileName(name)?.localDate).toBe(day));

  it.each(['0999-01-01.md', '3000-01-01.md', '0001-01-01.md', 'Build 4021-10-12.md', '1660-1-1.md'])(
    'finds none in %s',
    (name) => expect(dateFromFileName(name)).toBeNull(),
  );
});
