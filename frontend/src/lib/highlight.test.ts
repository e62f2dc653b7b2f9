import { describe, expect, it } from 'vitest';

import { excerptAround, normalizeHighlights, splitHighlights, withoutMarkdownMarks } from '@/lib/highlight';

describe('splitHighlights', () => {
  it('cuts the text into unmarked and marked runs at the offsets', () => {
    expect(splitHighlights('Tom called about tomorrow', [{ start: 0, end: 3 }])).toEqual([
      { text: 'Tom', mark: true },
      { text: ' called about tomorrow', mark: false },
    ]);
    expect(
      splitHighlights('Tom called about tomorrow', [
        { start: 17, end: 20 },
        { start: 0, end: 3 },
      ]),
    ).toEqual([
      { text: 'Tom', mark: true },
      { text: ' called about ', mark: false },
      { text: 'tom', mark: true },
      { text: 'orrow', mark: false },
    ]);
  });

  it('gives the whole text unmarked without highlights, and joins back to the text', () => {
    expect(splitHighlights('plain', [])).toEqual([{ text: 'plain', mark: false }]);
    expect(splitHighlights('', [])).toEqual([{ text: '', mark: false }]);
    const text = 'a café by the sea, a café again';
    const parts = splitHighlights(text, [
      { start: 2, end: 6 },
      { start: 21, end: 25 },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => p.mark).map((p) => p.text)).toEqual(['café', 'café']);
  });

  it('merges overlapping and touching spans, drops empty ones and keeps spans inside the text', () => {
    expect(
      normalizeHighlights('abcdefgh', [
        { start: 1, end: 3 },
        { start: 2, end: 5 },
        { start: 5, end: 6 },
        { start: 7, end: 7 },
        { start: 6, end: 99 },
      ]),
    ).toEqual([{ start: 1, end: 8 }]);
  });

  it('never cuts a surrogate pair: an emoji is marked whole', () => {
    const text = 'I 😀 you'; // the emoji is two UTF-16 units, at 2 and 3
    // A span that starts or ends between the two halves takes the whole pair.
    expect(splitHighlights(text, [{ start: 3, end: 4 }])).toEqual([
      { text: 'I ', mark: false },
      { text: '😀', mark: true },
      { text: ' you', mark: false },
    ]);
    expect(splitHighlights(text, [{ start: 0, end: 3 }])).toEqual([
      { text: 'I 😀', mark: true },
      { text: ' you', mark: false },
    ]);
    // Offsets past an astral character are UTF-16 ones, as the server counts them.
    expect(splitHighlights('𝒳 Tom', [{ start: 3, end: 6 }])).toEqual([
      { text: '𝒳 ', mark: false },
      { text: 'Tom', mark: true },
    ]);
    for (const part of splitHighlights('😀😀😀', [{ start: 1, end: 3 }])) {
      expect(part.text.isWellFormed()).toBe(true);
    }
  });
});

describe('excerptAround', () => {
  const long = `${'Lorem ipsum dolor sit amet. '.repeat(10)}Then Tom called about the garden. ${'More words follow here. '.repeat(10)}`;
  const at = long.indexOf('Tom');

  it('starts shortly before the first highlight, at a space, and moves the highlights with it', () => {
    const excerpt = excerptAround(long, [{ start: at, end: at + 3 }]);
    expect(excerpt.cutStart).toBe(true);
    expect(excerpt.cutEnd).toBe(true);
    expect(excerpt.text.startsWith(' ')).toBe(false);
    const [span] = excerpt.highlights;
    expect(excerpt.text.slice(span!.start, span!.end)).toBe('Tom');
    expect(span!.start).toBeLessThanOrEqual(40);
    expect(excerpt.text.length).toBeLessThan(200);
  });

  it('keeps a short text whole and reads line breaks as spaces at the same offsets', () => {
    const excerpt = excerptAround('Tom\ncalled', [{ start: 4, end: 10 }]);
    expect(excerpt).toEqual({
      text: 'Tom called',
      highlights: [{ start: 4, end: 10 }],
      cutStart: false,
      cutEnd: false,
    });
  });

  it('does not start inside a surrogate pair', () => {
    const text = `${'😀'.repeat(40)}Tom`;
    const excerpt = excerptAround(text, [{ start: 80, end: 83 }], { before: 3 });
    expect(excerpt.text.isWellFormed()).toBe(true);
    expect(excerpt.text.slice(excerpt.highlights[0]!.start, excerpt.highlights[0]!.end)).toBe('Tom');
  });
});

describe('withoutMarkdownMarks', () => {
  it('leaves out emphasis, heading and code marks and keeps the highlights on their words', () => {
    const content = '## Plans\n\n- ask **Tom** about the `ladder`';
    const at = content.indexOf('Tom');
    const ladder = content.indexOf('ladder');
    const excerpt = withoutMarkdownMarks(
      excerptAround(content, [
        { start: at, end: at + 3 },
        { start: ladder, end: ladder + 6 },
      ]),
    );
    expect(excerpt.text).toBe('Plans - ask Tom about the ladder');
    expect(excerpt.highlights.map((h) => excerpt.text.slice(h.start, h.end))).toEqual(['Tom', 'ladder']);
  });

  it('keeps a mark character that is itself part of the match', () => {
    const excerpt = withoutMarkdownMarks({
      text: 'score #1 **bold**',
      highlights: [{ start: 6, end: 8 }],
      cutStart: false,
      cutEnd: false,
    });
    expect(excerpt.text).toBe('score #1 bold');
    expect(excerpt.text.slice(excerpt.highlights[0]!.start, excerpt.highlights[0]!.end)).toBe('#1');
  });
});
