import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportProgress, ImportProgress } from '@haven/contracts/portability';
import { SERVICE_NAMES, type ServiceName } from '@haven/contracts/routes';
import type { Message } from '@haven/contracts/assistant';
import type { Insight } from '@haven/contracts/insights';
import type { Thought } from '@haven/contracts/thoughts';
import { loadConfig } from '@haven/kit/config';
import { createScratchDatabase, freePort, internalHeaders, sessionCookie, until } from '@haven/kit/testing';
import { startOtlpReceiver } from './support/otlp-receiver';
import { startRoundRobin } from './support/round-robin';
import { zipOf } from './support/zip';

const root = path.join(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  name: string;
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Waits until a process answers `path`, failing with its output if it exits first. */
async function waitReady(proc: Proc, p = '/readyz') {
  for (let i = 0; i < 1200; i++) {
    if (proc.child.exitCode !== null)
      throw new Error(`${proc.name} exited with ${proc.child.exitCode}: ${proc.output()}`);
    if (
      await fetch(proc.url + p).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  throw new Error(`${proc.name} never became ready: ${proc.output()}`);
}

/**
 * The image's entry point (docker/entrypoint.sh) run straight on this machine the way the compose
 * stack or Kubernetes runs it: two processes of every service behind a round-robin address each (as
 * Docker's DNS spreads them), a separate worker-only insights process, and the gateway; one shared
 * PostgreSQL and Redis. Every service reaches the others through those addresses too.
 */
describe.skipIf(!process.env.DATABASE_URL)('distributed mode: two replicas of every service', () => {
  const procs: Proc[] = [];
  const proxies: Array<Awaited<ReturnType<typeof startRoundRobin>>> = [];
  const replicas = {} as Record<ServiceName, Proc[]>;
  let database: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>> | undefined;
  let gateway: Proc;
  let cookie = '';
  const userId = 5;
  const env: Record<string, string> = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    INTERNAL_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `d${randomBytes(4).toString('hex')}`,
    OPERATOR_TOKEN: randomBytes(24).toString('hex'),
    LOG_LEVEL: process.env.DISTRIBUTED_LOGS ? 'info' : 'warn',
    HOST: '127.0.0.1',
    // A killed replica's job is taken over within seconds; imports run in short steps.
    JOB_LOCK_MS: '2000',
    IMPORT_STEP_MS: '200',
  };

  async function run(service: string, name: string, extra: Record<string, string> = {}): Promise<Proc> {
    const port = await freePort();
    let output = '';
    const child = spawn(path.join(root, 'docker', 'entrypoint.sh'), [], {
      cwd: root,
      env: { PATH: process.env.PATH, ...env, PORT: String(port), ...extra, SERVICE: service },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (process.env.DISTRIBUTED_LOGS) child.stdout!.pipe(createWriteStream(`/tmp/dist-${name}.log`));
    child.stdout!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
    child.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
    const proc = { name, child, url: `http://127.0.0.1:${port}`, output: () => output };
    procs.push(proc);
    return proc;
  }

  beforeAll(async () => {
    database = await createScratchDatabase(process.env.DATABASE_URL!);
    env.DATABASE_URL = database.url;
    // Every process exports its traces to this local collector, in batches a fifth of a second apart.
    otlp = await startOtlpReceiver();
    env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
    env.OTEL_BSP_SCHEDULE_DELAY = '200';
    for (const name of SERVICE_NAMES) {
      const proxy = await startRoundRobin();
      proxies.push(proxy);
      env[`${name.toUpperCase()}_URL`] = proxy.url;
    }
    // Started one service at a time (two processes each, together): migrations and start-up on two cores.
    for (const [i, name] of SERVICE_NAMES.entries()) {
      replicas[name] = await Promise.all([run(name, `${name}-a`), run(name, `${name}-b`)]);
      await Promise.all(replicas[name].map((p) => waitReady(p)));
      proxies[i]!.targets.push(...replicas[name].map((p) => p.url));
    }
    await waitReady(await run('insights', 'insights-worker', { RUN_API: 'false' }));
    gateway = await run('gateway', 'gateway');
    await waitReady(gateway, '/healthz');
    cookie = await sessionCookie(loadConfig({ ...env, NODE_ENV: 'test' }), userId);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(
      procs.map(
        ({ child }) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve(null);
            child.once('exit', resolve);
            child.kill('SIGKILL');
          }),
      ),
    );
    for (const proxy of proxies) await proxy.close();
    await otlp?.close();
    await database?.drop();
  });

  const api = (p: string, init: RequestInit = {}) =>
    fetch(gateway.url + p, {
      ...init,
      headers: { cookie, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    });
  const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;
  const direct = (replica: Proc, service: ServiceName, p: string, init: RequestInit = {}) =>
    fetch(replica.url + p, {
      ...init,
      headers: {
        ...internalHeaders(loadConfig({ ...env, NODE_ENV: 'test' }), userId, service),
        ...(init.headers as Record<string, string>),
      },
    });

  it('is ready end to end through every replica', async () => {
    // Anyone is told the site is ready; the operator, what was checked.
    expect(await json(fetch(`${gateway.url}/readyz`))).toEqual({ status: 'ready' });
    const ready = await json<{ status: string; checks: Record<string, string> }>(
      fetch(`${gateway.url}/readyz`, { headers: { authorization: `Bearer ${env.OPERATOR_TOKEN}` } }),
    );
    expect(ready.status).toBe('ready');
    for (const name of SERVICE_NAMES) expect(ready.checks[name]).toBe('ok');
    const res = await api('/api/user-preferences');
    expect(res.status).toBe(200);
  });

  it('gives one cited insight per period and exactly one assistant reply', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const thought = await json<Thought>(
      api('/api/thoughts', {
        method: 'POST',
        body: JSON.stringify({
          content: 'Planted tomatoes with Sam and felt calm. Need to buy stakes on Friday.',
          clientDate: new Date().toISOString(),
          timezoneOffset: 0,
        }),
      }),
    );
    let insight: Insight | undefined;
    await until(
      async () => {
        const res = await api(`/api/insights/daily?date=${today}&range=day`);
        if (res.status !== 200) return false;
        insight = (await res.json()) as Insight;
        return insight.status === 'ready';
      },
      60_000,
      'insight ready',
    );
    const cited = [...insight!.summaryReferences, ...insight!.themes.flatMap((t) => t.references)];
    expect(cited).toContain(thought.id);
    // Both replicas' workers and the worker-only process share the queue: still one insight.
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from insights.insights where user_id = $1 and range = 'day'`,
        [userId],
      );
      expect(rows[0]!.n).toBe(1);
    } finally {
      await client.end();
    }

    const conversation = await json<{ id: number }>(
      api('/api/conversations', { method: 'POST', body: JSON.stringify({ title: 'Garden' }) }),
    );
    // As the SPA does: the question is stored, then a reply is asked for.
    const question = { content: 'What did I plant?', type: 'user', timezoneOffset: 0 };
    expect(
      (
        await api(`/api/conversations/${conversation.id}/messages`, {
          method: 'POST',
          body: JSON.stringify(question),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api('/api/assistant/query', {
          method: 'POST',
          body: JSON.stringify({
            conversationId: conversation.id,
            query: question.content,
            timezoneOffset: 0,
          }),
        })
      ).status,
    ).toBe(202);
    const replies = async () =>
      (await json<Message[]>(api(`/api/conversations/${conversation.id}/messages`))).filter(
        (m) => m.type === 'assistant',
      );
    await until(async () => (await replies()).length > 0, 60_000, 'a reply');
    await sleep(3000);
    expect(await replies()).toHaveLength(1);

    // One trace from the gateway to the worker that wrote the reply, across three processes: the
    // gateway's request and its hop, the assistant replica that answered 202 (its event went through
    // the outbox and the queue), and the job in whichever assistant worker took it.
    const spans = otlp!.spans;
    const inTrace = () => {
      const edge = spans.find(
        (s) =>
          s.service === 'haven-gateway' &&
          s.kind === 2 &&
          s.attributes['http.route'] === '/api/assistant/query',
      );
      return edge ? spans.filter((s) => s.traceId === edge.traceId) : [];
    };
    await until(() => inTrace().some((s) => s.name === 'job assistant.reply'), 30_000, 'the traced reply');
    const trace = inTrace();
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const ancestry = (span: (typeof trace)[number]) => {
      const chain = [span];
      for (let p = byId.get(span.parentSpanId); p; p = byId.get(p.parentSpanId)) chain.push(p);
      return chain.map((s) => `${s.service}: ${s.name}`);
    };
    const job = trace.find((s) => s.name === 'job assistant.reply')!;
    expect(job).toMatchObject({ service: 'haven-assistant', kind: 5 });
    expect(ancestry(job)).toEqual([
      'haven-assistant: job assistant.reply',
      'haven-assistant: POST /api/assistant/query',
      'haven-gateway: POST assistant',
      'haven-gateway: POST /api/assistant/query',
    ]);
    // The worker's own calls (the thoughts it searched) continue the same trace.
    expect(trace.some((s) => s.service === 'haven-thoughts' && s.kind === 2)).toBe(true);
    // No user text in span names or attributes.
    expect(JSON.stringify(trace)).not.toContain('plant');
  }, 120_000);

  it('serves an export from either replica, and loses nothing when a replica is killed mid-import', async () => {
    const [a, b] = replicas.portability;
    for (const replica of [a!, b!]) {
      const { id } = await json<{ id: string }>(api('/api/account/export', { method: 'POST' }));
      await until(
        async () => (await json<ExportProgress>(api(`/api/account/export/${id}`))).status === 'ready',
        60_000,
        'export ready',
      );
      const download = await direct(replica, 'portability', `/api/account/export/${id}/download`);
      expect(download.status).toBe(200);
      expect(
        Buffer.from(await download.arrayBuffer())
          .subarray(0, 2)
          .toString(),
      ).toBe('PK');
    }

    const notes: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) notes[`vault/2023-02-0${(i % 9) + 1} ${i}.md`] = `Replica note ${i}`;
    const started = await direct(a!, 'portability', '/api/account/import', {
      method: 'POST',
      headers: { 'content-type': 'application/zip' },
      body: new Uint8Array(await zipOf(notes)),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const status = async () => {
      const res = await api(`/api/account/import/${id}`);
      // A replica going away may cost one answer; the next poll reaches the other.
      if (res.status !== 200)
        return { status: `http ${res.status}`, imported: 0 } as unknown as ImportProgress;
      return (await res.json()) as ImportProgress;
    };
    await until(async () => (await status()).imported > 0, 60_000, 'import under way');
    a!.child.kill('SIGKILL');
    await until(
      async () => (await status()).status === 'done',
      90_000,
      'import finished by the other replica',
    );
    expect(await status()).toMatchObject({ status: 'done', imported: 2000, duplicates: 0, failed: 0 });
    const all = await json<Thought[]>(api('/api/thoughts/all'));
    expect(all.filter((t) => t.content.includes('Replica note'))).toHaveLength(2000);
  }, 180_000);

  it('stops every other process cleanly on SIGTERM', async () => {
    const alive = procs.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
    const exits = await Promise.all(
      alive.map(
        ({ name, child, output }) =>
          new Promise<string>((resolve) => {
            child.once('exit', (code, signal) =>
              resolve(code === 0 ? `${name}: 0` : `${name}: ${code ?? signal}\n${output().slice(-3000)}`),
            );
            child.kill('SIGTERM');
          }),
      ),
    );
    expect(exits).toEqual(alive.map(({ name }) => `${name}: 0`));
  }, 60_000);
});
