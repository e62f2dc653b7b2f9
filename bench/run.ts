/**
 * `npm run bench`: every benchmark in one go. Not a test: it prints figures to compare between
 * changes. Uses DATABASE_URL when set (a real PostgreSQL), else embedded PGlite, and the Redis at
 * REDIS_URL (default 127.0.0.1:6379).
 */
import os from 'node:os';
import { benchAssistant } from './assistant.bench';
import { benchBackup } from './backup.bench';
import { benchGateway } from './gateway.bench';
import { benchImap, benchImapPush } from './imap.bench';
import { benchInsights } from './insights.bench';
import { benchIntegrations } from './integrations.bench';
import { benchLighthouse } from './lighthouse';
import { benchMeaning } from './meaning.bench';
import { benchMemory } from './memory.bench';
import { benchOverlay } from './overlay.bench';
import { benchPortability } from './portability.bench';
import { benchReplicas } from './replicas.bench';
import { benchSearch } from './search.bench';
import { benchThoughts } from './thoughts.bench';

console.log(
  `Haven benchmarks — node ${process.version}, ${os.cpus().length} cores, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
);
await benchGateway();
await benchThoughts();
await benchSearch();
await benchMeaning();
await benchMemory();
await benchInsights();
await benchAssistant();
await benchIntegrations();
await benchImap();
await benchImapPush();
await benchPortability();
await benchBackup();
await benchReplicas();
await benchLighthouse();
await benchOverlay();
