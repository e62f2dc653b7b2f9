import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceName } from '@haven/contracts/routes';
import { requireSettings, type Config } from '@haven/kit/config';
import { createLogger, type Logger } from '@haven/kit/logger';
import { createMetrics, startMetricsServer, type Metrics } from '@haven/kit/metrics';
import { QueueRegistry } from '@haven/kit/queue';
import { connectRedis, createRedis, type Redis } from '@haven/kit/redis';
import { createSessionStore } from '@haven/kit/sessions';
import { createGateway } from './app';

/** The gateway's metrics port in its own container (the OpenTelemetry Prometheus exporter's). */
export const DEFAULT_METRICS_PORT = 9464;

export interface RunningGateway {
  url: string;
  port: number;
  /** Where Prometheus reads the gateway's metrics (the internal metrics port); absent when off. */
  metricsUrl?: string;
  server: Server;
  close(): Promise<void>;
}

/** How the gateway is started. */
export interface GatewayStartOptions {
  config: Config;
  services: Record<ServiceName, string>;
  port?: number;
  host?: string;
  staticDir?: string;
  log?: Logger;
  /** How long a client may take to send its headers, and its whole request (defaults 15 s and 30 s). */
  timeouts?: { headersMs: number; requestMs: number };
  /**
   * The internal port and address of `/metrics` (default METRICS_PORT, else a free port, on
   * 127.0.0.1); `false` turns metrics off (the benchmark's comparison).
   */
  metrics?: { port: number; host?: string } | false;
}

/** The gateway's metrics and the internal server that serves them, unless metrics are off. */
async function startMetrics(options: GatewayStartOptions) {
  if (options.metrics === false) return { metrics: undefined, metricsServer: undefined };
  const listen = options.metrics;
  const metrics = createMetrics('gateway');
  const metricsServer = await startMetricsServer(metrics.registry, {
    port: listen?.port ?? options.config.METRICS_PORT ?? 0,
    host: listen?.host ?? '127.0.0.1',
  });
  return { metrics, metricsServer };
}

/** The request handler, over the sessions in Redis (and the queue dashboard when an operator token is set). */
function gatewayHandler(
  options: GatewayStartOptions,
  parts: { log: Logger; redis: Redis; metrics?: Metrics; queues?: QueueRegistry },
) {
  const { config } = options;
  const { log, redis, metrics, queues } = parts;
  return createGateway({
    log,
    internalSecret: config.INTERNAL_SECRET,
    sessions: createSessionStore(redis, { prefix: config.REDIS_PREFIX, jwtSecret: config.JWT_SECRET! }),
    redis,
    services: options.services,
    staticDir: options.staticDir ?? config.STATIC_DIR,
    https: config.APP_URL?.startsWith('https:') ?? false,
    trustProxy: config.TRUST_PROXY,
    appUrl: config.APP_URL,
    metrics,
    ...(queues
      ? { operator: { token: config.OPERATOR_TOKEN!, queues, allowWrite: config.OPERATOR_ALLOW_WRITE } }
      : {}),
  });
}

/** The HTTP server, listening; resolves once it accepts connections. */
async function listen(options: GatewayStartOptions, handler: RequestListener): Promise<Server> {
  const { config } = options;
  const headersMs = options.timeouts?.headersMs ?? 15_000;
  // Headers that never finish and bodies that never arrive are cut, not held for minutes; Node
  // checks these bounds every `connectionsCheckingInterval`, so that runs often enough to keep them.
  const server = createServer(
    {
      headersTimeout: headersMs,
      requestTimeout: options.timeouts?.requestMs ?? 30_000,
      connectionsCheckingInterval: Math.min(1000, headersMs),
    },
    handler,
  ).listen(options.port ?? config.PORT ?? 8080, options.host ?? config.HOST);
  server.keepAliveTimeout = 65_000;
  await once(server, 'listening');
  return server;
}

/** Connects to Redis and listens; resolves once the gateway accepts connections. */
export async function startGateway(options: GatewayStartOptions): Promise<RunningGateway> {
  const { config } = options;
  requireSettings(config, ['JWT_SECRET']);
  const log = options.log ?? createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const redis = createRedis(config.REDIS_URL);
  await connectRedis(redis, config.REDIS_URL);
  const { metrics, metricsServer } = await startMetrics(options);
  // The dashboard reads and acts on the queues directly; only an operator token opens it.
  const queues = config.OPERATOR_TOKEN
    ? new QueueRegistry({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX })
    : undefined;
  const server = await listen(options, gatewayHandler(options, { log, redis, metrics, queues }));
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    ...(metricsServer ? { metricsUrl: `http://127.0.0.1:${metricsServer.port}/metrics` } : {}),
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })
        .then(() => metricsServer?.close())
        .then(() => queues?.close())
        .then(() => redis.disconnect());
      return closing;
    },
  };
}
