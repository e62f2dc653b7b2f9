import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { createFieldCipher, generateKey } from '@haven/kit/crypto';
import { drizzleOf, runMigrations } from '@haven/kit/db';
import { createEmbedder, normalise } from '@haven/kit/llm';
import { createLogger } from '@haven/kit/logger';
import { repoPath } from '@haven/kit/paths';
import { createTestDatabase } from '@haven/kit/testing';
import { embeddings, thoughts } from '@haven/thoughts/db/schema';
import {
  createMeaning,
  embeddingContext,
  MIN_SCORE,
  vectorBytes,
  type Meaning,
} from '@haven/thoughts/domain/meaning/meaning';
import { contentContext } from '@haven/thoughts/domain/present';
import { createTagSealer } from '@haven/thoughts/domain/tags';
import { DOUBLE_DIMS, doubleVector, startEmbeddingsDouble } from '../test/doubles/embeddings-server';

const USER = 1;
const COUNT = 100_000;
const WORDS = (
  'rent money bills anxious worried happy tired slept garden river run walk dinner friends sister work ' +
  'report meeting deadline coffee rain sun book music film travel train city sea mountain cook bread ' +
  'doctor health back pain yoga calm angry sad proud grateful idea plan project code bug release team'
).split(' ');
const QUERIES = [
  'When was I worried about money?',
  'times I felt happy with friends',
  'sleeping badly and tired',
  'walks by the river',
  'stress at work before a deadline',
  'cooking dinner for my sister',
  'grateful and proud moments',
  'travel by train to the sea',
];

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/**
 * Search by meaning for one user with 100,000 thoughts' vectors (the stand-in model's 256
 * dimensions, stored encrypted as the worker stores them): the first search of a process, which
 * decrypts every vector once into the int8 codes, and searches once the codes are held. Each search
 * includes its query's embedding call to the local stand-in model.
 */
export async function benchMeaning(): Promise<void> {
  const database = await createTestDatabase();
  const model = await startEmbeddingsDouble();
  try {
    await runMigrations(database.connection, 'thoughts', repoPath('services', 'thoughts', 'drizzle'));
    const db = drizzleOf(database.connection);
    const key = generateKey();
    const cipher = createFieldCipher(key);
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const started = performance.now();
    // Every vector as inserted, to measure what the codes miss against an exact scan.
    const all = new Float32Array(COUNT * DOUBLE_DIMS);
    const allIds = new Int32Array(COUNT);
    for (let i = 0; i < COUNT; i += 1000) {
      const texts = Array.from({ length: Math.min(1000, COUNT - i) }, () =>
        Array.from(
          { length: 6 + Math.floor(random() * 10) },
          () => WORDS[Math.floor(random() * WORDS.length)],
        ).join(' '),
      );
      const ids = await db
        .insert(thoughts)
        .values(
          texts.map((text) => ({
            userId: USER,
            contentEnc: cipher.encrypt(text, contentContext(USER)),
            localDate: '2025-01-01',
          })),
        )
        .returning({ id: thoughts.id });
      await db.insert(embeddings).values(
        texts.map((text, j) => {
          const vector = normalise(Float32Array.from(doubleVector(text)));
          all.set(vector, (i + j) * DOUBLE_DIMS);
          allIds[i + j] = ids[j]!.id;
          return {
            thoughtId: ids[j]!.id,
            userId: USER,
            model: 'double-embed',
            dims: DOUBLE_DIMS,
            vectorEnc: cipher.encryptBytes(vectorBytes(vector), embeddingContext(USER)),
            sourceKey: 'bench',
          };
        }),
      );
    }
    // As autovacuum does within a minute of a bulk write: planned without statistics, a page of
    // vectors by id is read by scanning the user's every row instead of the primary key.
    await db.execute(sql`analyze thoughts.embeddings`);
    await db.execute(sql`analyze thoughts.thoughts`);
    console.log(
      `\nSearch by meaning, one user with ${COUNT.toLocaleString('en')} vectors of ${DOUBLE_DIMS} dims ` +
        `(inserted in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    const fresh = (): Meaning =>
      createMeaning({
        db,
        cipher,
        tags: createTagSealer(cipher, key),
        embedder: createEmbedder({
          OPENAI_BASE_URL: model.url,
          OPENAI_API_KEY: undefined,
          OPENAI_EMBEDDINGS_MODEL: 'double-embed',
          OPENAI_TIMEOUT_MS: 8000,
        }),
        dataKey: key,
        cacheBytes: 128 * 1024 * 1024,
        log: createLogger({ name: 'bench', level: 'warn' }),
      })!;

    // Cold: a new process's first search builds the user's codes from the stored vectors.
    const cold: number[] = [];
    let meaning = fresh();
    for (let i = 0; i < 3; i++) {
      meaning = fresh();
      const t0 = performance.now();
      const hits = await meaning.search(USER, QUERIES[i]!, 20);
      cold.push(performance.now() - t0);
      if (hits.length === 0) throw new Error('a cold search found nothing');
    }
    const { bytes } = meaning.cacheStats();

    // Warm: the codes are held; about once a second a search also compares the stored version.
    const warm: number[] = [];
    const until = performance.now() + 8000;
    for (let i = 0; performance.now() < until; i++) {
      const t0 = performance.now();
      await meaning.search(USER, QUERIES[i % QUERIES.length]!, 20);
      warm.push(performance.now() - t0);
    }
    const related: number[] = [];
    for (let id = 1; id <= 200; id++) {
      const t0 = performance.now();
      await meaning.related(USER, id * 397, 10);
      related.push(performance.now() - t0);
    }
    // Recall: of the 10 thoughts an exact scan of every vector ranks first (ties at the tenth score
    // count alike, and those under MIN_SCORE are not expected), the share the search returns.
    const recalls: number[] = [];
    for (const query of QUERIES) {
      const q = normalise(Float32Array.from(doubleVector(query)));
      const exact = new Map<number, number>();
      for (let k = 0; k < COUNT; k++) {
        let dot = 0;
        for (let d = 0; d < DOUBLE_DIMS; d++) dot += all[k * DOUBLE_DIMS + d]! * q[d]!;
        exact.set(allIds[k]!, dot);
      }
      const tenth = [...exact.values()].sort((a, b) => b - a)[9]!;
      const expected = Math.min(10, [...exact.values()].filter((x) => x >= MIN_SCORE).length);
      if (expected === 0) continue;
      const hits = await meaning.search(USER, query, 10);
      const good = hits.filter((h) => exact.get(h.id)! >= tenth - 1e-4 && h.score >= MIN_SCORE).length;
      recalls.push(Math.min(1, good / expected));
    }
    const row = (label: string, xs: number[]) =>
      console.log(
        `  ${label.padEnd(40)} n=${String(xs.length).padStart(5)}  p50 ${percentile(xs, 50).toFixed(1).padStart(7)} ms` +
          `  p99 ${percentile(xs, 99).toFixed(1).padStart(7)} ms`,
      );
    row('search, cold (builds the codes)', cold);
    row('search, warm (query embedding included)', warm);
    row('related, warm', related);
    console.log(
      `  codes held: ${(bytes / 1024 / 1024).toFixed(1)} MB for ${COUNT.toLocaleString('en')} vectors ` +
        `(budget MEANING_CACHE_MB=128); cold build ≈ ${percentile(cold, 50).toFixed(0)} ms`,
    );
    console.log(
      `  recall@10 against an exact scan: ${(recalls.reduce((a, b) => a + b, 0) / recalls.length).toFixed(3)} ` +
        `(mean over ${recalls.length} queries)`,
    );
    console.log('  target: warm search p99 ≤ 150 ms at 100,000 vectors');
  } finally {
    await model.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMeaning();
