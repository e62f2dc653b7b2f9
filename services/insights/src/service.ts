import { authInternalContract, thoughtsInternalContract } from '@haven/contracts/internal';
import { createLlm } from '@haven/kit/llm';
import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { userDeletionJob } from '@haven/kit/user-deletion';
import { outbox } from './db/schema';
import { createInsights, type InsightSources } from './domain/insights';
import { generateJob } from './jobs/generate.job';
import { thoughtChangedJob } from './jobs/thought-changed.job';
import { insightsRoutes, internalRoutes, portabilityRoutes } from './routes/insights.routes';

/** The insights service's composition root. */
export const insightsService: ServiceDefinition = {
  name: 'insights',
  migrationsFolder: repoPath('services', 'insights', 'drizzle'),
  outboxTable: outbox,
  build(deps) {
    const thoughts = deps.internal('thoughts', thoughtsInternalContract);
    const auth = deps.internal('auth', authInternalContract);
    // Other services are read through their internal APIs, never their tables.
    const sources: InsightSources = {
      stats: async (userId, period) =>
        (await thoughts(userId).stats({ query: { start: period.start, end: period.end } })).body,
      thoughts: async (userId, period) =>
        (await thoughts(userId).range({ query: { start: period.start, end: period.end } })).body,
      includeThoughtContent: async (userId) => (await auth(userId).preferences()).body.includeThoughtContent,
    };
    const insights = createInsights({
      db: deps.db,
      uow: deps.uow,
      cipher: deps.cipher,
      sources,
      llm: createLlm(deps.config, deps.metrics),
      log: deps.log,
    });
    return {
      routes: [insightsRoutes(insights), internalRoutes(insights), portabilityRoutes(insights)],
      jobs: [
        thoughtChangedJob(insights),
        generateJob(insights),
        userDeletionJob('insights', { uow: deps.uow, schema: 'insights' }),
      ],
      reconcilers: [
        {
          name: 'insights-pending',
          queue: 'insights.generate',
          everyMs: 60_000,
          findOverdue: () => insights.overdue(),
        },
      ],
    };
  },
};
