import { describe, expect, it } from 'vitest';
import { MAX_CONTENT_LENGTH } from '@haven/contracts/thoughts';
import { cpuMs } from '@haven/kit/testing';
import { splitNote } from './split';

const words = (s: string) => s.split(/\s+/).filter(Boolean);
const lorem = (n: number, seed: number) => Array.from({ length: n }, (_, i) => `word${seed}x${i}`).join(' ');

describe('splitNote', () => {
  it('keeps a note that fits whole', () => {
    expect(splitNote('# Title', 'short')).toEqual(['# Title\n\nshort']);
  });

  it('splits 30,000 characters at headings into titled parts, losing no word', () => {
    const body = [1, 2, 3, 4, 5, 6].map((s) => `## Section ${s}\n\n${lorem(520, s)}`).join('\n\n');
    expect(body.length).toBeGreaterThan(30_000);
    const parts = splitNote('# Long note', body);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    parts.forEach((p, i) => {
      expect(p.length).toBeLessThanOrEqual(MAX_CONTENT_LENGTH);
      expect(p.startsWith(`# Long note (part ${i + 1} of ${parts.length})\n\n`)).toBe(true);
    });
    // Cut at headings: every part after the first starts with one.
    for (const p of parts.slice(1)) expect(p.split('\n\n')[1]).toMatch(/^## Section \d/);
    const rejoined = parts.map((p) => p.slice(p.indexOf('\n\n') + 2)).join('\n');
    expect(words(rejoined)).toEqual(words(body));
  });

  it('splits a note without headings or paragraphs between words, and an endless word inside it', () => {
    const body = `${lorem(3000, 1)} ${'x'.repeat(25_000)} end`;
    const parts = splitNote('Plain title', body);
    parts.forEach((p) => expect(p.length).toBeLessThanOrEqual(MAX_CONTENT_LENGTH));
    const rejoined = parts.map((p) => p.slice(p.indexOf('\n\n') + 2)).join('');
    expect(rejoined.replace(/\s+/g, '')).toBe(body.replace(/\s+/g, ''));
    // Only the one word longer than a part is ever cut.
    const cutWords = parts.slice(0, -1).filter((p) => /word\d+x\d+$/.test(p) && !/\s$/.test(p));
    for (const p of cutWords) expect(body).toContain(`${p.split(/\s+/).pop()} `);
  });

  it('accepts a 1 MB note', () => {
    const body = lorem(110_000, 9).slice(0, 1024 * 1024);
    const parts = splitNote('# Big', body);
    expect(parts.length).toBeGreaterThan(100);
    expect(parts.every((p) => p.length <= MAX_CONTENT_LENGTH)).toBe(true);
  });

  it('keeps a title longer than a thought as text, every part within the limit', () => {
    const title = `# ${'Very long title '.repeat(1000)}`;
    const parts = splitNote(title, lorem(2000, 7));
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(MAX_CONTENT_LENGTH);
    expect(words(parts.join(' ')).filter((w) => w.startsWith('word7x'))).toHaveLength(2000);
    expect(parts[0]).toMatch(/^\(part 1 of \d+\)\n\n# Very long title/);
  });

  it('cuts a megabyte of long runs of spaces in linear time', () => {
    const body = `${' '.repeat(4000)}x`.repeat(250);
    const cpu = cpuMs(() => splitNote('# Spaces', body));
    expect(cpu).toBeLessThan(1000);
    for (const p of splitNote('# Spaces', body)) expect(p.length).toBeLessThanOrEqual(MAX_CONTENT_LENGTH);
  });
});
