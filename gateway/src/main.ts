import { createLogger } from '@haven/kit/logger';
import { serviceUrlsFrom } from '@haven/kit/internal-client';
import { repoPath } from '@haven/kit/paths';
import { installProcessGuards, loadConfigOrExit, onShutdown } from '@haven/kit/service';
import { startGateway } from './start';

/** Distributed mode: the gateway alone, in front of services found through *_URL variables. */
async function main() {
  const config = loadConfigOrExit('gateway', ['JWT_SECRET']);
  const log = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  installProcessGuards(log);
  const gateway = await startGateway({
    config,
    services: serviceUrlsFrom(config),
    staticDir: config.STATIC_DIR ?? repoPath('frontend', 'dist'),
    log,
  });
  log.info({ url: gateway.url }, 'gateway listening');
  onShutdown(() => gateway.close(), log);
}

main().catch((err: Error) => {
  process.stderr.write(`gateway: start-up failed: ${err.message}\n`);
  process.exit(1);
});
