import { describe, expect, it } from 'vitest';
import { foldText } from '../src/domain/search/fold';
import { boundariesOf, queryBoundaries } from '../src/domain/search/tokens';

describe('word boundaries of the index', () => {
  it('are where consecutive words meet, whatever separates them', () => {
    expect([...boundariesOf(foldText('We went  home, then... to bed'))]).toEqual([
      'we wen',
      'ent hom',
      'ome the',
      'hen to',
      'to bed',
    ]);
  });

  it('a query implies only those known on both sides', () => {
    // Partial first and last words of three code points or more are known to that length.
    expect(queryBoundaries('went home')).toEqual(['ent hom']);
    expect(queryBoundaries('ent hom')).toEqual(['ent hom']);
    // A short partial word may be the end (or start) of a longer one: no boundary.
    expect(queryBoundaries('t home')).toEqual([]);
    expect(queryBoundaries('went ho')).toEqual([]);
    // Inner words are whole, however short; a separator at an end makes that word whole.
    expect(queryBoundaries('t to be')).toEqual([]);
    expect(queryBoundaries('t to be ')).toEqual(['to be']);
    expect(queryBoundaries(' to be.')).toEqual(['to be']);
    expect(queryBoundaries('to be')).toEqual([]);
    expect(queryBoundaries('one')).toEqual([]);
  });

  it('every boundary a query implies is in any text holding it', () => {
    const text = foldText('Afterwards we went homeward; the dog (old) barked at 3 a.m. — twice!');
    const held = boundariesOf(text);
    const cps = Array.from(text);
    for (let i = 0; i < cps.length; i++)
      for (let j = i + 1; j <= cps.length; j++)
        for (const b of queryBoundaries(cps.slice(i, j).join(''))) expect(held.has(b)).toBe(true);
  });
});
