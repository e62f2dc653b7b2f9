import { describe, expect, it } from 'vitest';
import { cpuMs } from '@haven/kit/testing';
import { detectFormat } from '.';
import { pageHead, withoutInlineData } from './html-note';
import { memorySource, problemsOf, readAll, thoughtsOf } from './memory-source.test-support';

/** A note as the Apple Notes exporters write it: the note's own HTML (its body from the Notes API). */
const applePage = (title: string, body: string, head = '') =>
  `<html><head><meta charset="utf-8">${head}<title>${title}</title></head><body>` +
  `<div><h1>${title}</h1></div>${body}</body></html>`;

const PHOTO = `<div><img src="data:image/png;base64,${'iVBORw0KGgo'.repeat(20_000)}" alt=""></div>`;

const importOf = async (files: Record<string, string>) => {
  const source = memorySource(files);
  const reader = detectFormat(source.entries);
  return { reader, items: await readAll(reader!, source) };
};

describe('HTML notes (Apple Notes exporters, web pages)', () => {
  it('reads a folder of exported notes as notes, their photos left out', async () => {
    const { reader, items } = await importOf({
      'iCloud/Notes/Groceries.html': applePage(
        'Groceries',
        `<div>Milk and <b>bread</b> #shopping</div><div><br></div><ul><li>Eggs</li><li>Apples</li></ul>${PHOTO}`,
      ),
      'iCloud/Travel/Packing.html': applePage('Packing', '<div>Passport, charger.</div>'),
      'iCloud/Travel/Packing/attachment.jpeg': 'jpeg',
    });
    expect(reader?.format).toBe('html');
    const thoughts = thoughtsOf(items);
    expect(thoughts.map((t) => t.thought.content)).toEqual([
      '# Groceries\n\nMilk and **bread** #shopping\n\n-   Eggs\n-   Apples',
      '# Packing\n\nPassport, charger.',
    ]);
    expect(thoughts[0]!.thought).toMatchObject({ title: 'Groceries', tags: ['shopping'] });
    // Dated by the file's time in the zip (the exporters keep the note's dates there, if anywhere).
    expect(thoughts[0]!.dateSource).toBe('zip-time');
    expect(problemsOf(items)).toEqual([expect.objectContaining({ outcome: 'skipped' })]);
  });

  it('titles a page with no heading by its <title>, dated by its meta tags', async () => {
    const { items } = await importOf({
      'Evernote/Trip.html': `<html><head><title>Trip to Lisbon &amp; Porto</title><meta name="created" content="2019-04-02T08:15:00Z"></head><body><p>Trams and tiles.</p></body></html>`,
      'Evernote/Other.htm': '<p>No head at all.</p>',
    });
    const [trip, other] = thoughtsOf(items);
    expect(trip!.thought).toMatchObject({
      title: 'Trip to Lisbon & Porto',
      date: '2019-04-02T08:15:00.000Z',
      content: '# Trip to Lisbon & Porto\n\nTrams and tiles.',
    });
    expect(trip!.dateSource).toBe('metadata');
    expect(other!.thought).toMatchObject({ title: 'Other', content: '# Other\n\nNo head at all.' });
  });

  it('leaves a vault with a stray page a vault of Markdown notes', () => {
    const source = memorySource({ 'a.md': '# A', 'b.md': '# B', 'saved.html': '<p>x</p>' });
    expect(detectFormat(source.entries)?.format).toBe('notes');
  });

  it('fails a page that is too big without its inline images, and imports the rest', async () => {
    const { items } = await importOf({
      'big.html': `<p>${'word '.repeat(250_000)}</p>`,
      'small.html': '<p>Small.</p>',
    });
    expect(problemsOf(items)).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        reason:
          'The page holds more than 1 MB without its inline images, the limit of one note; it was not imported',
      }),
    ]);
    expect(thoughtsOf(items)).toHaveLength(1);
  });

  it('reads hostile heads and inline data in linear time', () => {
    const clean = `<p>${'a'.repeat(2_000_000)}</p>`;
    const base = Math.max(
      cpuMs(() => withoutInlineData(clean)),
      cpuMs(() => pageHead(clean)),
      1,
    );
    for (const hostile of [
      ' src="data:'.repeat(200_000),
      ' src=\'data:x"'.repeat(200_000),
      '<title'.repeat(400_000),
      "<meta content='".repeat(150_000),
      '<meta name="a" content="b"'.repeat(80_000),
    ]) {
      expect(cpuMs(() => withoutInlineData(hostile)) / base).toBeLessThan(50);
      expect(cpuMs(() => pageHead(hostile)) / base).toBeLessThan(50);
    }
    expect(withoutInlineData('<img src="data:image/png;base64,AAAA" alt="x"><a href=\'data:x\'>f</a>')).toBe(
      '<img src="" alt="x"><a href=\'\'>f</a>',
    );
  });
});
