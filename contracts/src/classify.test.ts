import { describe, expect, it } from 'vitest';
import { classifyByKeywords } from './classify';

describe('the keyword classifier', () => {
  it.each([
    ['Hey Haven, what is on today?', 'chat'],
    ['please HELP ME plan', 'chat'],
    ['can you remind me', 'chat'],
    ['  ? weather', 'chat'],
    ['I walked to the sea', 'thought'],
    ['Is it going to rain?', 'thought'],
    ['', 'thought'],
  ])('%j is a %s', (text, type) => {
    expect(classifyByKeywords(text)).toBe(type);
  });
});
