import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { preferencesContract } from '@haven/contracts/preferences';
import {
  CLIENT_IP_HEADER,
  IDENTITY_HEADERS,
  INTERNAL_TOKEN_HEADER,
  REQUEST_ID_HEADER,
  SESSION_COOKIE,
} from '@haven/contracts/routes';
import type { Config } from '@haven/kit/config';
import { healthRouter } from '@haven/kit/health';
import { createServiceApp, implement } from '@haven/kit/http';
import { createInternalTokenSigner } from '@haven/kit/internal-auth';
import { createLogger } from '@haven/kit/logger';
import { createMetrics } from '@haven/kit/metrics';
import { connectRedis, createRedis } from '@haven/kit/redis';
import { createSessionStore } from '@haven/kit/sessions';
import { internalHeaders, testConfig } from '@haven/kit/testing';
import { startTestGateway } from '@haven/gateway/testing';
import { load, printTable, ratio, type LoadResult } from './lib';

const PATH = '/api/user-preferences';
const USER_ID = 1;

async function listen(server: http.Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  server.keepAliveTimeout = 65_000;
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The service behind: the kit's service app (request ids, internal-token check, JSON parsing, the
 * contract's caller and user checks) answering the preferences GET from memory, so the benchmark
 * measures the hops and not a database, and does not need the auth service to build.
 */
export async function startStandInService(config: Config): Promise<{ url: string; server: http.Server }> {
  const updatedAt = new Date().toISOString();
  const app = createServiceApp({
    name: 'auth',
    log: createLogger({ name: 'auth', level: 'silent' }),
    internalSecret: config.INTERNAL_SECRET,
    health: healthRouter('auth', {}),
    metrics: createMetrics('auth'),
    routes: [
      implement(
        { get: preferencesContract.get },
        {
          get: () => ({
            askBeforeCalendarEvents: true,
            askBeforeEmails: true,
            includeThoughtContent: true,
            updatedAt,
          }),
        },
      ),
    ],
    checkAnswers: false,
  });
  const server = http.createServer(app);
  return { url: await listen(server), server };
}

/**
 * The floor: the least a gateway can do with node:http, in the same process. It strips client
 * identity headers and adds the same internal token, client address and request id, but checks no
 * session and sets no security headers.
 */
export async function startFloorProxy(
  config: Config,
  target: string,
): Promise<{ url: string; server: http.Server }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const tokenFor = createInternalTokenSigner(config.INTERNAL_SECRET, 'gateway');
  const { hostname, port } = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers };
    for (const name of IDENTITY_HEADERS) delete headers[name];
    headers[INTERNAL_TOKEN_HEADER] = tokenFor('auth', USER_ID);
    headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? '';
    headers[REQUEST_ID_HEADER] = randomUUID();
    const upstream = http.request(
      { hostname, port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  return { url: await listen(server), server };
}

/** The three ways to the same answer, in one process: straight, through the floor, through the gateway. */
export async function startGatewayBenchStack() {
  const config = testConfig({ NODE_ENV: 'production' });
  const service = await startStandInService(config);
  const floor = await startFloorProxy(config, service.url);
  const gateway = await startTestGateway(config, { auth: service.url }, service.url);
  const bare = await startTestGateway(config, { auth: service.url }, service.url, { metrics: false });
  const redis = createRedis(config.REDIS_URL);
  await connectRedis(redis, config.REDIS_URL);
  const sessions = createSessionStore(redis, { prefix: config.REDIS_PREFIX, jwtSecret: config.JWT_SECRET! });
  const { token, sessionId } = await sessions.create(USER_ID);
  return {
    config,
    urls: { direct: service.url, floor: floor.url, gateway: gateway.url, unmetered: bare.url },
    headers: {
      direct: internalHeaders(config, USER_ID, 'auth'),
      floor: {},
      gateway: { cookie: `${SESSION_COOKIE}=${token}` },
      unmetered: { cookie: `${SESSION_COOKIE}=${token}` },
    },
    async close() {
      await sessions.revoke(sessionId);
      redis.disconnect();
      await gateway.close();
      await bare.close();
      for (const s of [floor.server, service.server]) {
        s.closeAllConnections();
        s.close();
      }
    },
  };
}

type Case = 'direct' | 'floor' | 'gateway' | 'unmetered';
const LABELS: Record<Case, string> = {
  direct: 'direct to the service',
  floor: 'bare node:http proxy (floor)',
  gateway: 'through the gateway (metrics on)',
  unmetered: 'through the gateway, metrics off',
};

/** The median of each case's runs, by throughput. */
function median(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(runs.length / 2)]!;
}

/**
 * The gateway with its Prometheus metrics on and off, side by side. On a shared machine one run of
 * each says little, so they alternate (off, on) for five rounds and the medians are compared.
 */
async function compareMetrics(
  stack: Awaited<ReturnType<typeof startGatewayBenchStack>>,
  seconds: number,
): Promise<void> {
  const runs: Record<'unmetered' | 'gateway', LoadResult[]> = { unmetered: [], gateway: [] };
  const each = Math.max(2, Math.round(seconds / 2));
  for (let round = 0; round < 5; round++) {
    for (const c of ['unmetered', 'gateway'] as const) {
      const target = stack.urls[c] + PATH;
      if (round === 0) await load('warm-up', target, { headers: stack.headers[c], seconds: 2 });
      runs[c].push(await load(LABELS[c], target, { headers: stack.headers[c], seconds: each }));
    }
  }
  const off = median(runs.unmetered);
  const on = median(runs.gateway);
  printTable(`GET ${PATH} through the gateway, metrics off and on (median of 5 alternating ${each} s runs)`, [
    off,
    on,
  ]);
  const cost = (1 - on.requestsPerSecond / off.requestsPerSecond) * 100;
  console.log(`  metrics on/off ×${ratio(on, off)} (${cost.toFixed(1)}% throughput cost; target ≤ 5%)`);
}

/**
 * A trivial authenticated GET straight to the service, through a bare node:http pass-through proxy
 * (the floor any gateway in this process can reach) and through the real gateway, in one run.
 * `only` loads one case (for `node --cpu-prof`).
 */
export async function benchGateway(options: { seconds?: number; only?: Case } = {}): Promise<void> {
  const stack = await startGatewayBenchStack();
  const seconds = options.seconds ?? 8;
  const cases: Case[] = options.only ? [options.only] : ['direct', 'floor', 'gateway'];
  try {
    const results = {} as Record<Case, LoadResult>;
    for (const c of cases) {
      const target = stack.urls[c] + PATH;
      // Warm each path (JIT, connection pools, token caches).
      await load('warm-up', target, { headers: stack.headers[c], seconds: 2 });
      results[c] = await load(LABELS[c], target, { headers: stack.headers[c], seconds });
    }
    printTable(
      `GET ${PATH} (16 connections, ${seconds} s each)`,
      cases.map((c) => results[c]),
    );
    if (results.direct && results.floor && results.gateway) {
      console.log(`  floor/direct ×${ratio(results.floor, results.direct)}`);
      console.log(
        `  gateway/floor ×${ratio(results.gateway, results.floor)}, ` +
          `gateway/direct ×${ratio(results.gateway, results.direct)}, ` +
          `p50 +${(results.gateway.p50 - results.direct.p50).toFixed(1)} ms, ` +
          `p99 +${(results.gateway.p99 - results.direct.p99).toFixed(1)} ms over direct`,
      );
    }
    if (!options.only) await compareMetrics(stack, seconds);
    const failed = cases.filter((c) => results[c].errors + results[c].non2xx > 0);
    if (failed.length > 0) throw new Error(`Requests failed in: ${failed.join(', ')}`);
  } finally {
    await stack.close();
  }
}
