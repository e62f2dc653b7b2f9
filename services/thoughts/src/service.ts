import { createLlm } from '@haven/kit/llm';
import { repoPath } from '@haven/kit/paths';
import type { ServiceDefinition } from '@haven/kit/service';
import { outbox } from './db/schema';
import { transcribeJob } from './jobs/transcribe.job';
import { thoughtsRoutes } from './routes/thoughts.routes';

/** The thoughts service: its migrations, outbox, routes and queue tasks. */
export const thoughtsService: ServiceDefinition = {
  name: 'thoughts',
  migrationsFolder: repoPath('services', 'thoughts', 'drizzle'),
  outboxTable: outbox,
  // A voice thought may carry up to 10 MB of audio, sent as base64.
  jsonLimit: '15mb',
  routes(router, deps) {
    thoughtsRoutes(router, deps, createLlm(deps.config));
  },
  jobs(deps) {
    const llm = createLlm(deps.config);
    return llm ? [transcribeJob(deps, llm)] : [];
  },
};
