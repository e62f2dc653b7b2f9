import { describe, expect, it } from 'vitest';
import type { ExportedThought } from '@haven/contracts/portability';
import { dayMarkdown, localTimeLabel } from './markdown';

const thought = (date: string, timezoneOffset: number | null): ExportedThought => ({
  id: 1,
  content: 'Lunch with Tom',
  date,
  localDate: '2025-11-26',
  timezoneOffset,
  tags: ['friends'],
  isVoice: false,
  category: 'personal',
  hasAudio: false,
  format: 'text',
  audio: null,
});

describe('times in the Markdown export', () => {
  it.each([
    // getTimezoneOffset() is positive west of UTC: Berlin in winter sends -60.
    ['2025-11-26T14:00:00.000Z', -60, '15:00 UTC+01:00'],
    ['2025-11-26T14:00:00.000Z', 300, '09:00 UTC-05:00'],
    ['2025-11-26T14:00:00.000Z', -330, '19:30 UTC+05:30'],
    ['2025-11-26T23:30:00.000Z', -120, '01:30 UTC+02:00'],
    ['2025-11-26T14:00:00.000Z', 0, '14:00 UTC'],
    ['2025-11-26T14:00:00.000Z', null, '14:00 UTC'],
  ])('%s at offset %s reads %s', (date, offset, label) => {
    expect(localTimeLabel(date, offset)).toBe(label);
  });

  it("writes each thought under its writer's own wall-clock time", () => {
    const md = dayMarkdown('2025-11-26', [thought('2025-11-26T14:00:00.000Z', -60)]);
    expect(md).toContain('## 15:00 UTC+01:00 · personal · #friends\n\nLunch with Tom');
    expect(md).not.toContain('14:00');
  });
});
