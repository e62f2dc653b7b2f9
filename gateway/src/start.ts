import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceName } from '@haven/contracts/routes';
import type { Config } from '@haven/kit/config';
import { createLogger, type Logger } from '@haven/kit/logger';
import { connectRedis, createRedis } from '@haven/kit/redis';
import { createSessionStore } from '@haven/kit/sessions';
import { createGatewayApp } from './app';

export interface RunningGateway {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}

/** Service URLs from the configuration (distributed mode). */
export function serviceUrlsFrom(config: Config): Record<ServiceName, string> {
  return {
    auth: config.AUTH_URL,
    thoughts: config.THOUGHTS_URL,
    insights: config.INSIGHTS_URL,
    assistant: config.ASSISTANT_URL,
    integrations: config.INTEGRATIONS_URL,
  };
}

/** Connects to Redis and listens; resolves once the gateway accepts connections. */
export async function startGateway(options: {
  config: Config;
  services: Record<ServiceName, string>;
  port?: number;
  host?: string;
  staticDir?: string;
  log?: Logger;
}): Promise<RunningGateway> {
  const { config } = options;
  const log = options.log ?? createLogger({ name: 'gateway', level: config.LOG_LEVEL });
  const redis = createRedis(config.REDIS_URL);
  await connectRedis(redis, config.REDIS_URL);
  const app = createGatewayApp({
    log,
    internalSecret: config.INTERNAL_SECRET,
    sessions: createSessionStore(redis, { prefix: config.REDIS_PREFIX, jwtSecret: config.JWT_SECRET }),
    redis,
    services: options.services,
    staticDir: options.staticDir ?? config.STATIC_DIR,
    https: config.APP_URL?.startsWith('https:') ?? false,
  });
  const server = app.listen(options.port ?? config.PORT ?? 8080, options.host ?? config.HOST);
  server.keepAliveTimeout = 65_000;
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => redis.disconnect());
      return closing;
    },
  };
}
