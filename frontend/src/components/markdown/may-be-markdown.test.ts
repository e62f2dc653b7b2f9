import { describe, expect, it } from 'vitest';

import { mayBeMarkdown } from './lazy-markdown';

describe('mayBeMarkdown', () => {
  it('leaves plain sentences to plain paragraphs (the renderer is not loaded for them)', () => {
    for (const text of [
      'Meet Tom on Tuesday at 3pm.',
      'First line\nsecond line\n\nA new paragraph.',
      'Ran 5k - felt good',
    ])
      expect(mayBeMarkdown(text), text).toBe(false);
  });

  it('sends anything Markdown would render differently to the renderer', () => {
    for (const text of [
      'Two hours of *Deep Work*',
      '# Reading notes',
      'Notes\n- one\n- two',
      '  1. first',
      '> quoted',
      'Title\n===',
      'see https://example.com',
      'www.example.com',
      'mail ana@example.com',
      '`code`',
      '[[Wiki page]]',
      'a | b',
      'Tom &amp; Jerry',
      '    indented code',
    ])
      expect(mayBeMarkdown(text), text).toBe(true);
  });

  it('reads a long run of blank lines in linear time', () => {
    const start = performance.now();
    mayBeMarkdown(`${'\n   '.repeat(50_000)}x`);
    expect(performance.now() - start).toBeLessThan(100);
  });
});
