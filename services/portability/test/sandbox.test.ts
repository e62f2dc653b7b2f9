import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '@haven/contracts/portability';
import { until } from '@haven/kit/testing';
import { insertTransfer, updateAtStep } from '../src/db/transfers.repository';
import { createBlobStore } from '../src/domain/blob-store';
import { sandboxBudgets } from '../src/domain/import/sandbox/sandbox';
import { createPortability } from '../src/domain/portability';
import { startEveryService } from '../../../test/support/stack';
import { countOf, importOf, keptBy, newUser } from './support/imports';
import { forgedExportZip, nestedFrontMatterZip, redosZip, zipEntries } from './support/probe-zips';

/** The sandbox's heap in this file: small, so that one test's journal can pass it for real. */
const HEAP_MB = 48;

/** Resident memory of this process (every service of the stack runs in it), in MB. */
const rssMb = () => process.memoryUsage().rss / 2 ** 20;

/** Samples `probe` every `everyMs` while `work` runs; the samples and the work's result. */
async function sampling<T, S>(
  work: Promise<T>,
  probe: () => Promise<S> | S,
  everyMs: number,
): Promise<{ result: T; samples: S[] }> {
  const samples: S[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      samples.push(await probe());
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  try {
    return { result: await work, samples };
  } finally {
    running = false;
    await loop;
  }
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * q)]!;
const p99 = (values: number[]) => quantile(values, 0.99);

/** A Day One journal file of `entries` short entries (its name decides the order in the zip). */
const journal = (entries: string[]) =>
  Buffer.from(
    JSON.stringify({
      entries: entries.map((text, i) => ({
        text,
        creationDate: `2024-03-0${(i % 9) + 1}T10:00:00Z`,
        timeZone: 'Europe/London',
      })),
    }),
  );

/** A journal file whose one entry's text is `mb` megabytes: more than a small sandbox can hold. */
function giantJournal(mb: number): Readable {
  const piece = 'a'.repeat(1024 * 1024);
  let left = mb;
  return new Readable({
    read() {
      if (left === mb) this.push('{"entries":[{"creationDate":"2024-03-01T10:00:00Z","text":"');
      if (left-- > 0) return void this.push(piece);
      this.push('"}]}');
      this.push(null);
    },
  });
}

describe('the import sandbox', () => {
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  let stack: Awaited<ReturnType<typeof startEveryService>>['stack'];

  beforeAll(async () => {
    everything = await startEveryService({ IMPORT_SANDBOX_HEAP_MB: String(HEAP_MB) });
    stack = everything.stack;
  });
  afterAll(async () => {
    await everything?.stop();
  });

  const reasons = (errors: Array<{ file: string; message: string }>) =>
    Object.fromEntries(errors.map((e) => [e.file, e.message]));

  it('imports the probe’s nested front matter as text, never parsed (3 notes, then 30), beside the other notes, its memory bounded', async () => {
    const me = await newUser(stack, 'nested');
    const base = rssMb();
    const three = await importOf(stack, me, await nestedFrontMatterZip(3));
    expect(three).toMatchObject({ status: 'done', imported: 6, failed: 0 });
    const thirty = await importOf(stack, me, await nestedFrontMatterZip(30));
    // The first round's six again, and 27 new nested notes.
    expect(thirty).toMatchObject({ status: 'done', imported: 27, split: 27, failed: 0, duplicates: 6 });
    // Each nested note is its 50,000 brackets as text, in 8 parts (a thought holds 10,000 characters).
    expect((await keptBy(stack, me)).thoughts).toBe(3 + 30 * 8);
    // Every service of the stack runs in this process, which is still here, and hardly grew.
    expect(rssMb() - base).toBeLessThan(150);
  }, 60_000);

  it('reads a note of one 200 KB line of "[[" in moments', async () => {
    const me = await newUser(stack, 'brackets');
    const started = performance.now();
    const result = await importOf(stack, me, await redosZip(200_000));
    // The child process starts, lists the zip and reads both notes: the line itself takes milliseconds.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ status: 'done', failed: 0 });
    expect(result.imported).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('refuses a forged export of 1,000,000 items in the first pass, naming the limit', async () => {
    const me = await newUser(stack, 'forged');
    const started = performance.now();
    const result = await importOf(stack, me, await forgedExportZip(1_000_000), 120_000);
    expect(result).toMatchObject({ status: 'failed', imported: 0, failed: 0 });
    expect(result.message).toBe(
      `The zip holds more than ${IMPORT_LIMITS.items} items (notes, entries, thoughts, conversations and other files), the limit of one import; nothing was imported`,
    );
    // The upload is deleted just after the status is saved.
    await until(async () => (await keptBy(stack, me)).blobs === 0, 5000, 'upload deleted');
    expect((await keptBy(stack, me)).thoughts).toBe(0);
    // Refused after 100,001 items, not after a million failures one at a time.
    expect(performance.now() - started).toBeLessThan(60_000);
  }, 150_000);

  it('skips and reports a file that takes its sandbox past its memory, imports the rest, and another user stays fast', async () => {
    const me = await newUser(stack, 'giant');
    const other = await newUser(stack, 'neighbour');
    const zip = await zipEntries([
      { name: 'A.json', data: journal(['First morning entry', 'Second morning entry']) },
      { name: 'B.json', data: giantJournal(HEAP_MB * 2) },
      { name: 'C.json', data: journal(['An evening entry']) },
    ]);
    const neighbour = async () => {
      const t = performance.now();
      const res = await fetch(`${stack.get('thoughts').url}/api/thoughts?date=2024-03-01`, {
        headers: stack.headers('thoughts', other),
      });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      return performance.now() - t;
    };
    // The same requests for two seconds before: what this machine gives them with no import running.
    const before = await sampling(new Promise((r) => setTimeout(r, 2000)), neighbour, 20);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const { result, samples } = await sampling(importOf(stack, me, zip, 60_000), neighbour, 20).finally(() =>
      loop.disable(),
    );
    expect(result).toMatchObject({ status: 'done', imported: 3, failed: 1 });
    expect(reasons(result.errors)).toEqual({
      'B.json': `This note could not be read within the limits: it needed more than ${HEAP_MB} MB of memory`,
    });
    expect(samples.length).toBeGreaterThan(20);
    // The service's own event loop was never held: the 96 MB file was parsed in the sandbox. Parsed
    // here, it would hold the loop for the whole parse (JSON.parse of it alone takes 760 ms on this
    // machine); a loaded machine adds waits of its own (112 ms once, beside the other heavy files).
    expect(loop.percentile(99) / 1e6, 'event loop delay p99, ms').toBeLessThan(250);
    // Its requests stayed fast: under 100 ms, or within twice the quiet ones on a machine so loaded
    // that even those were slow. The 95th percentile: on two cores the sandbox takes one, and a test
    // running beside this one the other, so a rare request waits for a core whatever the design.
    const bound = Math.max(100, 2 * p99(before.samples));
    expect(
      quantile(samples, 0.95),
      `p95 ${quantile(samples, 0.95)} ms during, p99 ${p99(before.samples)} ms before`,
    ).toBeLessThan(bound);
  }, 90_000);

  it('takes a step whose process died once more in a smaller sandbox, then quarantines the entry it died on', async () => {
    const me = await newUser(stack, 'poison');
    const deps = stack.get('portability').deps;
    const blobs = createBlobStore({ db: deps.db, cipher: deps.cipher });
    const portability = createPortability({
      db: deps.db,
      uow: deps.uow,
      blobs,
      cipher: deps.cipher,
      internal: deps.internal,
      log: deps.log,
      stepMs: 60_000,
      sandbox: sandboxBudgets(HEAP_MB, 20_000),
    });
    const zip = await zipEntries(
      ['one', 'two', 'three'].map((n) => ({
        name: `${n}.md`,
        data: Buffer.from(`# Note ${n}\n\nText ${n}`),
      })),
    );
    // The upload and its transfer, as the route makes them, but with no job: this test is the worker.
    const writer = await blobs.writer(me);
    writer.stream.end(zip);
    await finished(writer.stream);
    const id = randomUUID();
    await insertTransfer(deps.db, { id, userId: me, kind: 'import', blobId: writer.id });
    // The last two runs of step 1 died while the sandbox read entry 1 ("two.md").
    await updateAtStep(deps.db, id, 1, { attempt: { entry: 1, deaths: 1 } });
    await portability.importStep({ userId: me, transferId: id, step: 1 });

    const [row] = (
      (await deps.db.execute(
        sql`select status, counts, quarantine, attempt from portability.transfers where id = ${id}`,
      )) as unknown as { rows: Array<Record<string, unknown>> }
    ).rows;
    expect(row).toMatchObject({
      status: 'done',
      counts: expect.objectContaining({ imported: 2, failed: 1 }),
      quarantine: [
        [1, 'This note could not be read within the limits: the import stopped while reading it, twice'],
      ],
      attempt: null,
    });
    const titles = await countOf(
      stack,
      sql`select count(*)::int as n from thoughts.thoughts where user_id = ${me}`,
    );
    expect(titles).toBe(2);
  }, 60_000);
});
