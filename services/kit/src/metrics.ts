import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withTimeout } from './redis';

/** Where every process answers Prometheus: on its own internal port, never through the gateway. */
export const METRICS_PATH = '/metrics';

/** Request and call durations: from a cache hit (5 ms) to a model answer (a minute). */
const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Job states BullMQ counts per queue (`getJobCounts`). */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'] as const;
export type QueueCounts = Partial<Record<(typeof QUEUE_STATES)[number], number>>;

/** What the gauges read when Prometheus scrapes (each read bounded, so a dead Redis cannot hang it). */
export interface MetricSources {
  /** Job counts per queue the process consumes. */
  queues?: () => Promise<Record<string, QueueCounts>>;
  /** Unsent outbox events and the age of the oldest. */
  outbox?: () => Promise<{ pending: number; oldestAgeSeconds: number }>;
}

/**
 * The Prometheus series of one service (or the gateway), in a registry of its own labelled
 * `service`, so the services of the all-in-one process never clash. Labels are bounded: route
 * templates, queue names, status codes, outcomes; never a user id or a concrete path.
 */
export interface Metrics {
  registry: Registry;
  /** `route` is the contract's path template (`/api/thoughts/:id`), or `unmatched`. */
  http: Histogram<'method' | 'route' | 'status_code'>;
  /** One processed job attempt: `outcome` completed, failed or delayed (asked to come back later). */
  jobs: Histogram<'queue' | 'outcome'>;
  /** One request to the model server: `outcome` ok or error. */
  model: Histogram<'operation' | 'outcome'>;
  /** Failed model requests and unusable answers, by kind (see `modelErrorKind` in llm.ts). */
  modelErrors: Counter<'operation' | 'kind'>;
  /** Tokens the model server reported, `type` prompt or completion. */
  modelTokens: Counter<'operation' | 'type'>;
  /** One call to Google, Slack or Notion: `status_code` the answer's, or `error` when none came. */
  provider: Histogram<'provider' | 'status_code'>;
  /** Answers of a provider that said "slow down" (429). */
  providerRateLimited: Counter<'provider'>;
}

/** How long a scrape waits for Redis or the database before leaving a gauge out. */
const SOURCE_TIMEOUT_MS = 2000;

/** Creates the registry of `service` with process metrics and the series every process shares. */
export function createMetrics(service: string, sources: MetricSources = {}): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter<L>({ name, help, labelNames, registers });

  if (sources.queues) {
    const read = sources.queues;
    new Gauge({
      name: 'haven_queue_jobs',
      help: 'Jobs in each BullMQ queue by state (the same for every replica: aggregate with max).',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        const counts = await withTimeout(read(), SOURCE_TIMEOUT_MS, 'queue counts').catch(() => null);
        for (const [queue, byState] of Object.entries(counts ?? {}))
          for (const state of QUEUE_STATES) this.set({ queue, state }, byState[state] ?? 0);
      },
    });
  }
  if (sources.outbox) {
    const read = sources.outbox;
    // One small indexed query per gauge (the unsent rows are few), so neither waits on the other.
    const backlog = () => withTimeout(read(), SOURCE_TIMEOUT_MS, 'outbox backlog').catch(() => null);
    new Gauge({
      name: 'haven_outbox_pending_events',
      help: 'Outbox events written but not yet published to their queue.',
      registers,
      async collect() {
        this.reset();
        const value = await backlog();
        if (value) this.set(value.pending);
      },
    });
    new Gauge({
      name: 'haven_outbox_oldest_pending_age_seconds',
      help: 'How long the oldest unpublished outbox event has waited (0 when none).',
      registers,
      async collect() {
        this.reset();
        const value = await backlog();
        if (value) this.set(value.oldestAgeSeconds);
      },
    });
  }

  return {
    registry,
    http: new Histogram({
      name: 'haven_http_request_duration_seconds',
      help: 'HTTP requests served, by contract route template and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: SECONDS,
      registers,
    }),
    jobs: new Histogram({
      name: 'haven_job_duration_seconds',
      help: 'Job attempts processed by this process, by queue and outcome.',
      labelNames: ['queue', 'outcome'],
      buckets: SECONDS,
      registers,
    }),
    model: new Histogram({
      name: 'haven_model_request_duration_seconds',
      help: 'Requests to the model server, by operation and outcome (ok or error).',
      labelNames: ['operation', 'outcome'],
      buckets: SECONDS,
      registers,
    }),
    modelErrors: counter(
      'haven_model_errors_total',
      'Failed model requests and unusable answers, by kind (timeout, rate_limited, server_error, ...).',
      ['operation', 'kind'],
    ),
    modelTokens: counter('haven_model_tokens_total', 'Tokens the model server reported using.', [
      'operation',
      'type',
    ]),
    provider: new Histogram({
      name: 'haven_provider_request_duration_seconds',
      help: 'Calls to Google, Slack and Notion, by provider and answer status (error: no answer).',
      labelNames: ['provider', 'status_code'],
      buckets: SECONDS,
      registers,
    }),
    providerRateLimited: counter(
      'haven_provider_rate_limited_total',
      'Provider answers that limited the rate (429).',
      ['provider'],
    ),
  };
}

/** `GET /metrics` in Prometheus' text format. */
export function metricsRouter(registry: Registry): Router {
  const router = Router();
  router.get(METRICS_PATH, async (_req, res) => {
    res.set('content-type', registry.contentType).send(await registry.metrics());
  });
  return router;
}

/**
 * A listener of its own for `/metrics`, for a process whose main port is public (the gateway):
 * Prometheus reaches it on the internal network, a browser on the public port never does.
 */
export async function startMetricsServer(
  registry: Registry,
  options: { port: number; host?: string },
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  }).listen(options.port, options.host);
  await once(server, 'listening');
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
