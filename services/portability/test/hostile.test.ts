import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS, type ImportProgress } from '@haven/contracts/portability';
import { until } from '@haven/kit/testing';
import { startEveryService } from '../../../test/support/stack';
import { zipOf } from '../../../test/support/zip';
import { countOf, importOf as importZip, keptBy, newUser } from './support/imports';
import { zipEntries } from './support/probe-zips';

/** `bytes` of JSON whitespace inside an array: compresses to almost nothing (a zip bomb). */
function inflating(bytes: number): Readable {
  let left = bytes;
  const block = Buffer.alloc(1024 * 1024, ' ');
  return new Readable({
    read() {
      if (left === bytes) this.push('[');
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, block.length);
      left -= n;
      this.push(block.subarray(0, n));
    },
  });
}

describe('hostile zips', () => {
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  let stack: Awaited<ReturnType<typeof startEveryService>>['stack'];
  let me: number;

  beforeAll(async () => {
    everything = await startEveryService();
    stack = everything.stack;
    me = await newUser(stack, 'hostile');
  });
  afterAll(async () => {
    await everything?.stop();
  });

  const count = (query: ReturnType<typeof sql>) => countOf(stack, query);
  const importOf = (zip: Buffer, timeoutMs?: number) => importZip(stack, me, zip, timeoutMs);

  /** Nothing imported, and nothing of the upload left stored. */
  async function expectNothingKept() {
    expect(await keptBy(stack, me)).toEqual({ thoughts: 0, blobs: 0 });
  }

  it('stops a zip bomb at the uncompressed limit, its memory bounded', async () => {
    const bomb = await zipEntries([
      { name: 'thoughts.json', data: inflating(IMPORT_LIMITS.dataFileBytes + 2 ** 20) },
    ]);
    expect(bomb.length).toBeLessThan(2 * 2 ** 20);
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let result: ImportProgress;
    try {
      result = await importOf(bomb, 60_000);
    } finally {
      clearInterval(sampler);
    }
    expect(result).toMatchObject({ status: 'failed', imported: 0 });
    expect(result.message).toMatch(
      /"thoughts\.json" is larger than 256 MB uncompressed.*nothing was imported/,
    );
    // Every service of the stack runs in this process: all of them together grew by less than this.
    expect((peak - base) / 2 ** 20).toBeLessThan(200);
    await expectNothingKept();
  }, 90_000);

  it('refuses a zip whose sizes lie', async () => {
    const zip = await zipEntries([{ name: 'note.md', data: Buffer.from('x'.repeat(50_000)) }]);
    // The central directory says the note is 100 bytes; it inflates to 50,000.
    const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(100, central + 24);
    const result = await importOf(zip);
    expect(result).toMatchObject({ status: 'failed', imported: 0 });
    expect(result.message).toMatch(/"note\.md" holds more than the zip says/);
    await expectNothingKept();
  });

  it('refuses names that climb out of the zip, and symbolic links, importing nothing', async () => {
    const climbing = await zipEntries([
      { name: 'good.md', data: Buffer.from('A fine note') },
      { name: 'xx/evil.md', data: Buffer.from('climbs out') },
    ]);
    const at = (buf: Buffer) => {
      let i = buf.indexOf('xx/evil.md');
      while (i >= 0) {
        buf.write('..', i);
        i = buf.indexOf('xx/evil.md', i);
      }
      return buf;
    };
    const traversal = await importOf(at(climbing));
    expect(traversal).toMatchObject({ status: 'failed', imported: 0 });
    expect(traversal.message).toBe(
      'The zip holds a file named "../evil.md" that points outside the zip; nothing was imported',
    );
    const link = await importOf(
      await zipEntries([
        { name: 'good.md', data: Buffer.from('A fine note') },
        { name: 'link.md', data: Buffer.from('/etc/passwd'), mode: 0o120777 },
      ]),
    );
    expect(link).toMatchObject({ status: 'failed', imported: 0 });
    expect(link.message).toBe('The zip holds a symbolic link ("link.md"); nothing was imported');
    await expectNothingKept();
  });

  it('refuses more files than the limit, and more thoughts than the limit', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= IMPORT_LIMITS.files; i++) files[`n/${i}.md`] = 'x';
    const many = await importOf(await zipOf(files));
    expect(many.message).toBe(
      `The zip holds ${IMPORT_LIMITS.files + 1} files, more than the limit of ${IMPORT_LIMITS.files}; nothing was imported`,
    );
    const item = (i: number) =>
      JSON.stringify({
        content: `t${i}`,
        date: '2024-01-01T00:00:00.000Z',
        localDate: '2024-01-01',
        category: 'personal',
        tags: [],
        isVoice: false,
      });
    const lines = Array.from({ length: IMPORT_LIMITS.items + 1 }, (_, i) => item(i));
    const absurd = await importOf(await zipOf({ 'thoughts.json': `[\n${lines.join(',\n')}\n]\n` }), 60_000);
    expect(absurd).toMatchObject({ status: 'failed', imported: 0 });
    expect(absurd.message).toMatch(/more than 100000 items .*the limit of one import; nothing was imported/);
    await expectNothingKept();
  }, 90_000);

  it('reports a note over the limit of one note by name, and imports the rest', async () => {
    const result = await importOf(
      await zipOf({ 'huge.md': 'word '.repeat(250_000), 'small.md': 'A small note' }),
    );
    expect(result).toMatchObject({ status: 'done', imported: 1, failed: 1 });
    expect(result.errors).toEqual([
      {
        file: 'huge.md',
        message: 'The note is larger than 1 MB, the limit of one note; it was not imported',
      },
    ]);
    await until(
      async () =>
        (await count(sql`select count(*)::int as n from thoughts.thoughts where user_id = ${me}`)) === 1,
    );
    await stack.get('thoughts').deps.db.execute(sql`delete from thoughts.thoughts where user_id = ${me}`);
  });

  it('names items that claim another user, and imports the rest', async () => {
    const json = JSON.stringify([
      {
        content: 'mine',
        date: '2024-01-01T10:00:00.000Z',
        localDate: '2024-01-01',
        category: 'personal',
        tags: [],
        isVoice: false,
      },
      {
        userId: me + 1,
        content: 'forged',
        date: '2024-01-01T11:00:00.000Z',
        localDate: '2024-01-01',
        category: 'personal',
        tags: [],
        isVoice: false,
      },
    ]);
    const result = await importOf(await zipOf({ 'thoughts.json': json }));
    expect(result).toMatchObject({ status: 'done', imported: 1, failed: 1 });
    expect(result.errors[0]).toMatchObject({
      file: 'thoughts.json',
      message: expect.stringMatching(/user/i),
    });
    expect(await count(sql`select count(*)::int as n from portability.blobs where user_id = ${me}`)).toBe(0);
  });
});
