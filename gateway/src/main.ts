import { createLogger } from '@haven/kit/logger';
import { serviceUrlsFrom } from '@haven/kit/internal-client';
import { repoPath } from '@haven/kit/paths';
import { startTracing } from '@haven/kit/tracing';
import { installProcessGuards, loadConfigOrExit, onShutdown } from '@haven/kit/service';
import { DEFAULT_METRICS_PORT, startGateway } from './start';

/** Distributed mode: the gateway alone, in front of services found through *_URL variables. */
async function main() {
  const config = loadConfigOrExit('gateway', ['JWT_SECRET']);
  const log = createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  installProcessGuards(log);
  const stopTracing = await startTracing('haven-gateway', config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const gateway = await startGateway({
    config,
    services: serviceUrlsFrom(config),
    staticDir: config.STATIC_DIR ?? repoPath('frontend', 'dist'),
    log,
    // Reached by Prometheus on the internal network; the public port never serves it.
    metrics: { port: config.METRICS_PORT ?? DEFAULT_METRICS_PORT, host: config.HOST },
  });
  log.info({ url: gateway.url, metrics: gateway.metricsUrl }, 'gateway listening');
  onShutdown(async () => {
    await gateway.close();
    await stopTracing?.();
  }, log);
}

main().catch((err: Error) => {
  process.stderr.write(`gateway: start-up failed: ${err.message}\n`);
  process.exit(1);
});
