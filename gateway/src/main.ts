import { ConfigError, loadConfig } from '@haven/kit/config';
import { createLogger } from '@haven/kit/logger';
import { repoPath } from '@haven/kit/paths';
import { onShutdown } from '@haven/kit/service';
import { serviceUrlsFrom, startGateway } from './start';

/** Distributed mode: the gateway alone, in front of services found through *_URL variables. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`gateway: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
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
