import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpuMs } from '@haven/kit/testing';
import { headingWords, plainTitleHeading, titleHeading, headingText } from './headings';

// The regexes these scans replace: the references they must agree with, on short lines only.
const oldTitle = (line: string) => /^#\s+(.+?)(?:\s+#+)?\s*$/.exec(line)?.[1] ?? null;
const oldPlainTitle = (line: string) => /^#\s+(.+?)\s*$/.exec(line)?.[1] ?? null;
const oldWords = (line: string) =>
  line
    .replace(/^#{1,6}\s+/, '')
    .replace(/\s+#+\s*$/, '')
    .trim()
    .toLowerCase();

/** A title as noteItems takes it: one of white space alone is none (the regexes captured `#  `'s space). */
const asTitle = (title: string | null) => (title?.trim() ? title.trim() : null);

const line = fc
  .array(fc.constantFrom('#', ' ', '\t', '\u00a0', '\r', '\u2028', 'a', 'B', 'é', '😀', 'x#', '##', '1'), {
    maxLength: 16,
  })
  .map((parts) => parts.join(''));

describe('ATX headings', () => {
  it('read as the old regexes read them', () => {
    fc.assert(
      fc.property(line, (l) => {
        expect(titleHeading(l)).toBe(asTitle(oldTitle(l)));
        expect(plainTitleHeading(l)).toBe(asTitle(oldPlainTitle(l)));
        expect(headingWords(l)).toBe(oldWords(l));
      }),
      { numRuns: 5000 },
    );
  });

  it('keep their words', () => {
    expect(titleHeading('# My day ##  ')).toBe('My day');
    expect(titleHeading('# C# notes')).toBe('C# notes');
    expect(titleHeading('#tag')).toBeNull();
    expect(plainTitleHeading('# I love this state\\!  ')).toBe('I love this state\\!');
    expect(headingWords('### Reading Notes ###')).toBe('reading notes');
  });

  it('read a heading line of a million spaces in linear time', () => {
    for (const hostile of ['# a' + ' '.repeat(1_000_000) + 'x#', '# a' + ' #'.repeat(500_000) + 'x'])
      expect(
        cpuMs(() => [titleHeading(hostile), plainTitleHeading(hostile), headingWords(hostile)]),
      ).toBeLessThan(1000);
  });
});

describe('headingText', () => {
  it.each([
    ['# Title', 'Title'],
    ['## A Super-Quick Markup Primer', 'A Super-Quick Markup Primer'],
    ['###### Deep ##', 'Deep'],
  ])('reads %j', (line, text) => expect(headingText(line)).toBe(text));

  it.each(['#tag', 'Plain', '####### Seven', '#'])('finds none in %j', (line) =>
    expect(headingText(line)).toBeNull(),
  );
});
