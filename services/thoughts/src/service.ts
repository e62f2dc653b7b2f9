import { createEmbedder, createLlm } from '@haven/kit/llm';
import { createDuplicateKeys } from '@haven/kit/portability';
import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { userDeletionJob } from '@haven/kit/user-deletion';
import { outbox } from './db/schema';
import { indexStoredThoughts } from './domain/search/backfill';
import { createSearchHashes } from './domain/search/hashes';
import { createSearch } from './domain/search/search';
import { createSearchWriter } from './domain/search/writer';
import { sealStoredTags } from './domain/tag-migration';
import { createTagSealer } from './domain/tags';
import { createThoughts } from './domain/thoughts';
import { embedJob } from './jobs/embed.job';
import { transcribeJob } from './jobs/transcribe.job';
import { internalRoutes, portabilityRoutes, thoughtsRoutes } from './routes/thoughts.routes';
import { createPortability } from './domain/portability';
import { withEmbedEvents } from './domain/meaning/events';
import { createMeaning } from './domain/meaning/meaning';

/** The thoughts service's composition root: the domain built once, for its routes and jobs alike. */
export const thoughtsService: ServiceDefinition = {
  name: 'thoughts',
  migrationsFolder: repoPath('services', 'thoughts', 'drizzle'),
  outboxTable: outbox,
  // A voice thought may carry up to 10 MB of audio, sent as base64.
  jsonLimit: '15mb',
  build(deps) {
    const tags = createTagSealer(deps.cipher, deps.config.DATA_ENCRYPTION_KEY);
    const dedupeKeys = createDuplicateKeys(deps.config.DATA_ENCRYPTION_KEY, 'thoughts');
    const searchWriter = createSearchWriter(
      createSearchHashes(deps.config.DATA_ENCRYPTION_KEY, deps.cipher.currentKeyId),
    );
    // Search by meaning, when an embeddings model is configured (null otherwise): each change of a
    // thought then also queues its embedding, in the same transaction as the change.
    const meaning = createMeaning({
      db: deps.db,
      cipher: deps.cipher,
      tags,
      embedder: createEmbedder(deps.config, deps.metrics),
      dataKey: deps.config.DATA_ENCRYPTION_KEY,
      cacheBytes: deps.config.MEANING_CACHE_MB * 1024 * 1024,
      queryTimeoutMs: deps.config.OPENAI_TIMEOUT_MS,
      log: deps.log,
    });
    const uow = meaning ? withEmbedEvents(deps.uow) : deps.uow;
    const search = createSearch({
      db: deps.db,
      cipher: deps.cipher,
      tags,
      hashes: searchWriter.hashes,
      meaning,
      log: deps.log,
    });
    const thoughts = createThoughts({
      db: deps.db,
      uow,
      cipher: deps.cipher,
      tags,
      keys: dedupeKeys,
      search: searchWriter,
      llm: createLlm(deps.config, deps.metrics),
      log: deps.log,
    });
    // Plaintext tags from before they were encrypted, and tags indexed under a rotated-out key, are
    // sealed in the background from the start, by processes that run workers only (an API-only
    // replica leaves it to them); until a row is sealed it reads as it is stored.
    const stopSealing = new AbortController();
    const sealing = deps.config.RUN_WORKERS
      ? sealStoredTags({ ...deps, tags, signal: stopSealing.signal }).catch((err: unknown) =>
          deps.log.error({ err }, 'sealing stored tags failed; the next start tries again'),
        )
      : undefined;
    // The search index of rows from before it, or built under a rotated-out key, likewise.
    const indexing = deps.config.RUN_WORKERS
      ? (async () => {
          await sealing;
          await indexStoredThoughts({ ...deps, tags, search: searchWriter, signal: stopSealing.signal });
        })().catch((err: unknown) =>
          deps.log.error({ err }, 'indexing stored thoughts failed; the next start tries again'),
        )
      : undefined;
    // Thoughts without a current vector (written before meaning was on, under another model, or
    // imported) are embedded in the background from the start, where workers run: by one replica at
    // a time (a lock in Redis for up to 30 minutes; the periodic sweep below finishes what a replica
    // that stopped left).
    const backfillLock = `${deps.config.REDIS_PREFIX}:meaning:backfill`;
    const backfill =
      meaning && deps.config.RUN_WORKERS
        ? (async () => {
            if ((await deps.redis.set(backfillLock, String(process.pid), 'PX', 1_800_000, 'NX')) !== 'OK')
              return;
            try {
              await meaning.backfill(stopSealing.signal);
            } finally {
              await deps.redis.del(backfillLock).catch(() => undefined);
            }
          })().catch((err: unknown) =>
            deps.log.error({ err }, 'embedding stored thoughts failed; the next start tries again'),
          )
        : undefined;
    return {
      routes: [
        thoughtsRoutes(thoughts, search),
        internalRoutes(thoughts, search),
        portabilityRoutes(
          createPortability({
            db: deps.db,
            uow,
            cipher: deps.cipher,
            tags,
            keys: dedupeKeys,
            search: searchWriter,
          }),
        ),
      ],
      jobs: [
        transcribeJob(thoughts),
        userDeletionJob('thoughts', { uow: deps.uow, schema: 'thoughts' }),
        embedJob(meaning, deps.log),
      ],
      // Thoughts the jobs missed (their every attempt failed while the model was down) are embedded
      // by a sweep every 30 minutes, on one replica at a time (one pass over the thoughts table).
      periodic: meaning
        ? [
            {
              name: 'thoughts-embedding-sweep',
              everyMs: 1_800_000,
              run: async () => {
                await meaning.sweep(stopSealing.signal);
              },
            },
          ]
        : [],
      async close() {
        stopSealing.abort();
        await sealing;
        await indexing;
        await backfill;
      },
    };
  },
};
