import {
  authInternalContract,
  insightsInternalContract,
  integrationsInternalContract,
  thoughtsInternalContract,
} from '@haven/contracts/internal';
import { createLlm } from '@haven/kit/llm';
import { createFairShare } from '@haven/kit/fair-share';
import { createDuplicateKeys } from '@haven/kit/portability';
import { createRateLimiter } from '@haven/kit/rate-limit';
import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { userDeletionJob } from '@haven/kit/user-deletion';
import { outbox } from './db/schema';
import { createAssistant } from './domain/assistant';
import { sealStoredMetadata } from './domain/message-metadata';
import { createPortability } from './domain/portability';
import type { ReplySources } from './domain/reply';
import { replyJob } from './jobs/reply.job';
import { assistantRoutes, portabilityRoutes } from './routes/assistant.routes';

/** The assistant service's composition root. */
export const assistantService: ServiceDefinition = {
  name: 'assistant',
  migrationsFolder: repoPath('services', 'assistant', 'drizzle'),
  outboxTable: outbox,
  // A voice message may carry up to 10 MB of audio, sent as base64.
  jsonLimit: '15mb',
  build(deps) {
    const thoughts = deps.internal('thoughts', thoughtsInternalContract);
    const auth = deps.internal('auth', authInternalContract);
    const integrations = deps.internal('integrations', integrationsInternalContract);
    const insights = deps.internal('insights', insightsInternalContract);
    // The user's thoughts and preferences are read through internal APIs, as this user only.
    const sources: ReplySources = {
      search: async (userId, { q, limit, match, start, end }) =>
        (
          await thoughts(userId).search({
            query: { q, limit: String(limit), ...(match ? { match } : {}), ...(start ? { start, end } : {}) },
          })
        ).body,
      range: async (userId, start, end) => (await thoughts(userId).range({ query: { start, end } })).body,
      includeThoughtContent: async (userId) => (await auth(userId).preferences()).body.includeThoughtContent,
      digest: async (userId, timezoneOffset) =>
        (await integrations(userId).digest({ query: { timezoneOffset: String(timezoneOffset) } })).body,
      waiting: async (userId) => (await integrations(userId).waiting()).body,
      invitations: async (userId) => (await integrations(userId).calendarEvents()).body,
      connections: async (userId) => (await integrations(userId).connections()).body,
      slackMentions: async (userId) => (await integrations(userId).slackMentions()).body,
      notionSearch: async (userId, q) => {
        const res = await integrations(userId).notionSearch({ query: { q } });
        if (res.status !== 200) throw new Error(`Notion search refused: ${res.body.message}`);
        return res.body;
      },
      weeklyInsight: async (userId, weekStart) =>
        (await insights(userId).period({ query: { date: weekStart, range: 'week' } })).body,
      knownContacts: async (userId, addresses) => {
        const res = await integrations(userId).knownContacts({ body: { addresses } });
        if (res.status !== 200) throw new Error(`Known contacts refused: ${res.body.message}`);
        return res.body.known;
      },
    };
    const assistant = createAssistant({
      db: deps.db,
      uow: deps.uow,
      cipher: deps.cipher,
      llm: createLlm(deps.config, deps.metrics),
      sources,
      log: deps.log,
    });
    // Metadata written before it was encrypted is sealed in the background by processes that run
    // workers (an API-only replica leaves it to them); until then a row reads as it is stored.
    const stopSealing = new AbortController();
    const sealing = deps.config.RUN_WORKERS
      ? sealStoredMetadata({ ...deps, signal: stopSealing.signal }).catch((err: unknown) =>
          deps.log.error({ err }, 'sealing stored message metadata failed; the next start tries again'),
        )
      : undefined;
    return {
      routes: [
        assistantRoutes(assistant, createRateLimiter(deps.redis, deps.config.REDIS_PREFIX)),
        portabilityRoutes(
          createPortability({
            db: deps.db,
            uow: deps.uow,
            cipher: deps.cipher,
            keys: createDuplicateKeys(deps.config.DATA_ENCRYPTION_KEY, 'conversations'),
          }),
        ),
      ],
      jobs: [
        replyJob(
          assistant,
          // One reply of a user at a time; a slot left by a worker that died frees itself after the
          // longest a reply can take (a few model calls, each bounded by OPENAI_TIMEOUT_MS).
          createFairShare(deps.redis, {
            prefix: deps.config.REDIS_PREFIX,
            name: 'reply',
            perKey: 1,
            leaseMs: 120_000,
          }),
        ),
        userDeletionJob('assistant', { uow: deps.uow, schema: 'assistant' }),
      ],
      reconcilers: [
        {
          name: 'assistant-unanswered',
          queue: 'assistant.reply',
          everyMs: 30_000,
          findOverdue: () => assistant.unanswered(),
        },
      ],
      async close() {
        stopSealing.abort();
        await sealing;
      },
    };
  },
};
