import path from 'node:path';
import { Readable } from 'node:stream';
import { Header } from 'tar';
import { describe, expect, it } from 'vitest';
import { zipEntries } from '../../../test/support/probe-zips';
import { tarOf, tarOfFolder } from '../../../test/support/tar';
import type { StoredBlob } from '../blob-store';
import { detectFormat } from './formats';
import { REAL, filesUnder } from './formats/labelled.test-support';
import { problemsOf, readAll, thoughtsOf } from './formats/memory-source.test-support';
import { ImportLimitError, type ImportSource } from './source';
import { isTar, openTarSource } from './tar-source';
import { corpusPresent } from '@haven/kit/corpus';

const blobOf = (bytes: Buffer): StoredBlob => ({
  id: 'tar',
  size: bytes.length,
  readRange: async (start, end) => bytes.subarray(start, end),
  stream: () => Readable.from([bytes]),
});

/** A tar written header by header, for what node-tar would not write (links, names that climb out). */
function rawTar(items: Array<{ path: string; type?: 'File' | 'SymbolicLink'; data?: string }>): Buffer {
  const blocks = items.flatMap(({ path: name, type = 'File', data = '' }) => {
    const header = Buffer.alloc(512);
    new Header({
      path: name,
      type,
      size: type === 'File' ? Buffer.byteLength(data) : 0,
      mode: 0o644,
      mtime: new Date('2022-10-03T10:00:00Z'),
      linkpath: type === 'SymbolicLink' ? '/etc/passwd' : undefined,
    }).encode(header, 0);
    const body = Buffer.alloc(Math.ceil(Buffer.byteLength(data) / 512) * 512);
    body.write(data);
    return [header, body];
  });
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

const read = async (source: ImportSource, name: string) => (await source.read(name, 1 << 20)).toString();

describe('a tar read as an import source (a Joplin JEX)', () => {
  it('keeps both files of a name written twice (tars appended to), the later as "name (2).ext"', async () => {
    const first = await tarOf({ 'a.md': 'first' });
    // The first tar without its end (the zero blocks after its last file), then the second.
    let end = first.length;
    while (end >= 512 && first.subarray(end - 512, end).every((byte) => byte === 0)) end -= 512;
    const both = Buffer.concat([first.subarray(0, end), await tarOf({ 'a.md': 'second' })]);
    const source = await openTarSource(blobOf(both));
    expect(source.entries.map((e) => e.name)).toEqual(['a.md', 'a (2).md']);
    expect((await source.read('a (2).md', 100)).toString()).toBe('second');
    expect((await source.read('a.md', 100)).toString()).toBe('first');
  });

  it('tells a tar from a zip', async () => {
    expect(await isTar(blobOf(await tarOf({ 'a.md': 'A' })))).toBe(true);
    expect(await isTar(blobOf(await zipEntries([{ name: 'a.md', data: Buffer.from('A') }])))).toBe(false);
    expect(await isTar(blobOf(Buffer.from('not an archive')))).toBe(false);
  });

  it('lists its files with sizes and times and reads each, long and accented names included', async () => {
    const long = `resources/${'n'.repeat(120)}.md`;
    const source = await openTarSource(
      blobOf(
        await tarOf({
          '0f1e.md': 'Groceries\n\nid: 0f1e\ntype_: 1',
          'Tu es ne\u0301.md': 'accent',
          [long]: 'x'.repeat(70_000),
        }),
      ),
    );
    expect(source.entries.map((e) => e.name).sort()).toEqual(['0f1e.md', long, 'Tu es né.md'].sort());
    expect(source.entries.find((e) => e.name === long)?.size).toBe(70_000);
    expect(await read(source, '0f1e.md')).toBe('Groceries\n\nid: 0f1e\ntype_: 1');
    expect(await read(source, long)).toBe('x'.repeat(70_000));
    await expect(source.read(long, 1000)).rejects.toThrow(/is larger than/);
  });

  it('refuses a name that climbs out, an absolute one, a link, or a damaged header, before reading', async () => {
    const refused = async (bytes: Buffer) => {
      const error = await openTarSource(blobOf(bytes)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportLimitError);
      return (error as Error).message;
    };
    expect(await refused(rawTar([{ path: 'ok.md' }, { path: '../evil.md', data: 'x' }]))).toBe(
      'The archive holds a file named "../evil.md" that points outside it; nothing was imported',
    );
    expect(await refused(rawTar([{ path: '/etc/evil.md', data: 'x' }]))).toMatch(/points outside it/);
    expect(await refused(rawTar([{ path: 'link.md', type: 'SymbolicLink' }]))).toBe(
      'The archive holds a link ("link.md"); nothing was imported',
    );
    const broken = rawTar([
      { path: 'a.md', data: 'A' },
      { path: 'b.md', data: 'B' },
    ]);
    broken.writeUInt8(broken.readUInt8(1024 + 10) ^ 0xff, 1024 + 10); // the second header's name: its checksum no longer holds
    expect(await refused(broken)).toBe('The tar archive is damaged; nothing was imported');
    // A header that says its file runs past the end of the upload.
    expect(await refused(rawTar([{ path: 'a.md', data: 'A'.repeat(2000) }]).subarray(0, 1024))).toBe(
      'The tar archive is damaged; nothing was imported',
    );
  });

  // The members of a real JEX export (notesnook-importer's test data), tarred as Joplin tars them.
  const jex = 'joplin/notesnook-jex/03_10_2022';
  it.runIf(corpusPresent(path.join(REAL, jex)))('imports a real Joplin JEX uploaded as it is', async () => {
    const dir = path.join(REAL, jex);
    const source = await openTarSource(blobOf(await tarOfFolder(dir, filesUnder(dir))));
    const reader = detectFormat(source.entries);
    expect(reader?.format).toBe('joplin');
    const items = await readAll(reader!, source);
    // As the same export zipped reads (joplin-real.test.ts): six notes, nothing failed.
    expect(thoughtsOf(items)).toHaveLength(6);
    expect(problemsOf(items).filter((p) => p.outcome === 'failed')).toEqual([]);
    expect(thoughtsOf(items).every((t) => !/^type_: \d+$/m.test(t.thought.content))).toBe(true);
  });
});
