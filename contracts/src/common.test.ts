import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AudioData,
  IdParam,
  IsoDateTime,
  LocalDate,
  MAX_AUDIO_BASE64_CHARS,
  StoredCategory,
  audioDataParts,
  displayCategory,
  noNul,
  NUL_MESSAGE,
  queryInt,
  userText,
} from './common';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

describe('LocalDate', () => {
  it('accepts real days, including 29 February of a leap year', () => {
    expect(LocalDate.parse('2025-01-05')).toBe('2025-01-05');
    expect(LocalDate.safeParse('2024-02-29').success).toBe(true);
  });

  it('rejects days that do not exist', () => {
    for (const bad of ['2025-02-30', '2025-02-29', '2025-13-01', '2025-04-31', '2025-00-10']) {
      expect(messages(LocalDate.safeParse(bad)), bad).toEqual(['Not a real calendar date']);
    }
  });

  it('rejects other formats with one format message', () => {
    for (const bad of ['2025-1-5', '2025/01/05', '05-01-2025', '2025-01-05T00:00:00Z', '']) {
      expect(messages(LocalDate.safeParse(bad)), bad).toEqual(['Dates must use the yyyy-MM-dd format']);
    }
  });
});

describe('IsoDateTime', () => {
  it('accepts Z and offsets, rejects plain dates', () => {
    expect(IsoDateTime.safeParse('2025-01-05T18:00:00.000Z').success).toBe(true);
    expect(IsoDateTime.safeParse('2025-01-05T18:00:00+02:00').success).toBe(true);
    expect(IsoDateTime.safeParse('2025-01-05').success).toBe(false);
  });
});

describe('IdParam', () => {
  it('turns a digit string into a number', () => {
    expect(IdParam.parse('42')).toBe(42);
  });

  it('rejects anything but a positive int4', () => {
    for (const bad of ['0', '-1', '1.5', '1e3', '0x10', ' 7', 'abc', '', '2147483648', '99999999999']) {
      expect(IdParam.safeParse(bad).success, bad).toBe(false);
    }
    expect(IdParam.parse('2147483647')).toBe(2147483647);
  });
});

describe('queryInt', () => {
  const limit = queryInt(1, 200);
  it('accepts strings and numbers in range', () => {
    expect(limit.parse('3')).toBe(3);
    expect(limit.parse(200)).toBe(200);
  });
  it('rejects out of range and non-integers', () => {
    for (const bad of ['0', '201', '2.5', 'ten', 2.5])
      expect(limit.safeParse(bad).success, String(bad)).toBe(false);
  });
});

describe('categories', () => {
  it('maps stored categories to the three shown ones', () => {
    expect(StoredCategory.options.map(displayCategory)).toEqual([
      'personal',
      'professional',
      'creative',
      'personal',
      'professional',
      'creative',
    ]);
    expect(displayCategory('something-else')).toBe('personal');
  });
});

describe('AudioData', () => {
  it('accepts base64 and data URLs, and splits the mime type off', () => {
    expect(AudioData.safeParse('UklGRg==').success).toBe(true);
    const url = 'data:audio/webm;codecs=opus;base64,GkXfow==';
    expect(AudioData.safeParse(url).success).toBe(true);
    expect(audioDataParts(url)).toEqual({ mimeType: 'audio/webm', base64: 'GkXfow==' });
  });

  it('rejects non-base64 and more than 10 MB', () => {
    expect(messages(AudioData.safeParse('not base64!'))).toEqual(['Audio must be base64 encoded']);
    expect(AudioData.safeParse('A'.repeat(MAX_AUDIO_BASE64_CHARS)).success).toBe(true);
    expect(messages(AudioData.safeParse('A'.repeat(MAX_AUDIO_BASE64_CHARS + 4)))).toEqual([
      'Audio must be at most 10 MB',
    ]);
  });
});

describe('user text', () => {
  it('refuses a NUL character anywhere, with one message', () => {
    const text = userText('Say something');
    for (const bad of ['\u0000', 'a\u0000b', ' trailing\u0000 ']) {
      expect(messages(text.safeParse(bad)), JSON.stringify(bad)).toEqual([NUL_MESSAGE]);
    }
    expect(text.parse('  fine  ')).toBe('fine');
    expect(messages(noNul(z.string()).safeParse('x\u0000'))).toEqual([NUL_MESSAGE]);
  });
});
