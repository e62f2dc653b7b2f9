import { describe, expect, it } from 'vitest';

import { completeHashtag, hashtagAtCaret, matchingTags } from '@/features/thoughts/lib/hashtag-at-caret';

describe('hashtagAtCaret', () => {
  it('finds the #tag being typed at the caret, as tags are read', () => {
    expect(hashtagAtCaret('Ran 5k #he', 10)).toEqual({ start: 7, query: 'he' });
    expect(hashtagAtCaret('#', 1)).toEqual({ start: 0, query: '' });
    expect(hashtagAtCaret('line\n#deep-wo', 13)).toEqual({ start: 5, query: 'deep-wo' });
    // Not a tag: glued to a word, caret elsewhere, a space typed after it.
    expect(hashtagAtCaret('a#b', 3)).toBeNull();
    expect(hashtagAtCaret('#health then', 12)).toBeNull();
    expect(hashtagAtCaret('#health ', 8)).toBeNull();
  });

  it('reads only a tag’s length back, however long the text', () => {
    const text = 'x'.repeat(100_000);
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) hashtagAtCaret(text, text.length);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('completeHashtag', () => {
  it('completes the tag, puts a space after it and the caret after that', () => {
    expect(completeHashtag('Stretch #he and more', 8, 11, 'health')).toEqual({
      text: 'Stretch #health and more',
      caret: 16,
    });
    expect(completeHashtag('#ru', 0, 3, 'running')).toEqual({ text: '#running ', caret: 9 });
  });
});

describe('matchingTags', () => {
  const tags = [{ tag: 'health' }, { tag: 'Habits' }, { tag: 'Morning Routine' }, { tag: 'he' }];
  it('offers tags starting with what is typed, in any case, that a # can spell', () => {
    expect(matchingTags(tags, 'H')).toEqual(['health', 'Habits', 'he']);
    expect(matchingTags(tags, 'he')).toEqual(['health']);
    expect(matchingTags(tags, 'mor')).toEqual([]);
  });
});
