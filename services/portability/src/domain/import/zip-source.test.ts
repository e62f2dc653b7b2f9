import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { zipEntries } from '../../../test/support/probe-zips';
import type { StoredBlob } from '../blob-store';
import { ImportLimitError } from './source';
import { openZipSource } from './zip-source';

const blobOf = (bytes: Buffer): StoredBlob => ({
  id: 'zip',
  size: bytes.length,
  readRange: async (start, end) => bytes.subarray(start, end),
  stream: () => Readable.from([bytes]),
});

/**
 * The zip with the UTF-8 flag (bit 11 of the general purpose flags) cleared in every local and
 * central header, and each name's bytes replaced by `raw` (same length), as zips that are not
 * yazl's write them.
 */
function unflagged(zip: Buffer, names: Record<string, Buffer> = {}): Buffer {
  const out = Buffer.from(zip);
  for (let at = 0; at + 46 <= out.length; at++) {
    const signature = out.readUInt32LE(at);
    const header = signature === 0x04034b50 ? 30 : signature === 0x02014b50 ? 46 : 0;
    if (!header) continue;
    const flagAt = signature === 0x04034b50 ? at + 6 : at + 8;
    out.writeUInt16LE(out.readUInt16LE(flagAt) & ~0x800, flagAt);
    const nameLength = out.readUInt16LE(signature === 0x04034b50 ? at + 26 : at + 28);
    const name = out.subarray(at + header, at + header + nameLength).toString('utf8');
    const raw = names[name];
    if (raw && raw.length === nameLength) raw.copy(out, at + header);
  }
  return out;
}

describe('the names of a zip', () => {
  it('keeps every file of a name written twice, the later ones as "name (2).ext", each read as its own', async () => {
    const zip = await zipEntries([
      { name: 'Notes/a.md', data: Buffer.from('first') },
      { name: 'Notes/a.md', data: Buffer.from('second') },
      { name: 'Notes/a (2).md', data: Buffer.from('third') },
      { name: 'README', data: Buffer.from('r1') },
      { name: 'README', data: Buffer.from('r2') },
    ]);
    const source = await openZipSource(blobOf(zip));
    const names = source.entries.map((e) => e.name);
    expect(names).toEqual(['Notes/a.md', 'Notes/a (2).md', 'Notes/a (2) (2).md', 'README', 'README (2)']);
    const texts = await Promise.all(names.map(async (name) => (await source.read(name, 100)).toString()));
    expect(texts).toEqual(['first', 'second', 'third', 'r1', 'r2']);
  });

  it('reads UTF-8 names a zip did not flag as UTF-8 (macOS Archive Utility) as UTF-8, in NFC', async () => {
    const zip = await zipEntries([
      { name: 'Notes/Search – and Find.md', data: Buffer.from('# Search') },
      { name: 'Notes/Tu es ne\u0301 sans pre\u0301venir.md', data: Buffer.from('# Tu') },
    ]);
    const source = await openZipSource(blobOf(unflagged(zip)));
    expect(source.entries.map((e) => e.name)).toEqual([
      'Notes/Search – and Find.md',
      'Notes/Tu es n\u00e9 sans pr\u00e9venir.md',
    ]);
    expect((await source.read('Notes/Tu es n\u00e9 sans pr\u00e9venir.md', 100)).toString()).toBe('# Tu');
  });

  it('reads a name that is not UTF-8 as DOS code page 437', async () => {
    // `caf\x82.md`: é in code page 437, a byte no UTF-8 text has alone.
    const zip = await zipEntries([{ name: 'cafX.md', data: Buffer.from('x') }]);
    const source = await openZipSource(
      blobOf(unflagged(zip, { 'cafX.md': Buffer.from('caf\x82.md', 'latin1') })),
    );
    expect(source.entries.map((e) => e.name)).toEqual(['café.md']);
  });

  it('refuses a name read as UTF-8 that climbs out of the zip', async () => {
    const zip = await zipEntries([{ name: 'a/XXX/x.md', data: Buffer.from('x') }]);
    // `..` spelt with a UTF-8 byte sequence in the name is still `..` once read: refused whole.
    const hostile = unflagged(zip, { 'a/XXX/x.md': Buffer.from('../é/x.md') });
    await expect(openZipSource(blobOf(hostile))).rejects.toThrow(ImportLimitError);
    await expect(openZipSource(blobOf(hostile))).rejects.toThrow(/points outside the zip/);
  });
});
