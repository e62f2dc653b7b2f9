import { createLlm } from '@haven/kit/llm';
import { createDuplicateKeys } from '@haven/kit/portability';
import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { userDeletionJob } from '@haven/kit/user-deletion';
import { outbox } from './db/schema';
import { indexStoredThoughts } from './domain/search/backfill';
import { createSearchHashes } from './domain/search/hashes';
import type { MeaningSearch } from './domain/search/meaning-port';
import { createSearch } from './domain/search/search';
import { createSearchWriter } from './domain/search/writer';
import { sealStoredTags } from './domain/tag-migration';
import { createTagSealer } from './domain/tags';
import { createThoughts } from './domain/thoughts';
import { transcribeJob } from './jobs/transcribe.job';
import { internalRoutes, portabilityRoutes, thoughtsRoutes } from './routes/thoughts.routes';
import { createPortability } from './domain/portability';

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
    // Search by meaning joins here when an embeddings model is configured.
    const meaning: MeaningSearch | null = null;
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
      uow: deps.uow,
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
    return {
      routes: [
        thoughtsRoutes(thoughts, search),
        internalRoutes(thoughts, search),
        portabilityRoutes(
          createPortability({
            db: deps.db,
            uow: deps.uow,
            cipher: deps.cipher,
            tags,
            keys: dedupeKeys,
            search: searchWriter,
          }),
        ),
      ],
      jobs: [transcribeJob(thoughts), userDeletionJob('thoughts', { uow: deps.uow, schema: 'thoughts' })],
      async close() {
        stopSealing.abort();
        await sealing;
        await indexing;
      },
    };
  },
};
