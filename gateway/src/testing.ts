import { SERVICE_NAMES, type ServiceName } from '@haven/contracts/routes';
import type { Config } from '@haven/kit/config';
import { createLogger } from '@haven/kit/logger';
import { startGateway, type RunningGateway } from './start';

/**
 * A gateway on a free port in front of the given services; any service not given is routed to
 * `fallback` (tests and benchmarks that run one service). Imported by tests and benchmarks only.
 */
export function startTestGateway(
  config: Config,
  services: Partial<Record<ServiceName, string>>,
  fallback: string,
  /** `metrics: false` runs it without metrics (the benchmark's comparison). */
  options: { metrics?: false } = {},
): Promise<RunningGateway> {
  const urls = Object.fromEntries(SERVICE_NAMES.map((name) => [name, services[name] ?? fallback])) as Record<
    ServiceName,
    string
  >;
  return startGateway({
    config,
    services: urls,
    port: 0,
    host: '127.0.0.1',
    log: createLogger({ name: 'gateway', level: 'silent' }),
    ...options,
  });
}
