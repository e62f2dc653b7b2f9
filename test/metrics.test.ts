import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@haven/auth/db/schema';
import { hashPassword } from '@haven/auth/domain/secrets';
import { SERVICE_NAMES, type ServiceName } from '@haven/contracts/routes';
import { startTestGateway } from '@haven/gateway/testing';
import type { RunningGateway } from '@haven/gateway/start';
import { sessionCookie, until } from '@haven/kit/testing';
import { startOpenAiDouble } from './doubles/openai-server';
import { startEveryService } from './support/stack';

/** The value of the series `name` whose labels include every one of `labels` (summed), from /metrics text. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      total += Number(line.split(' ').pop());
  }
  return total;
}

/** A GET with the path sent exactly as written (fetch would resolve `..`). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method: 'GET', headers: { accept: '*/*' } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * Every service and the gateway after a short walk: a sign-up, a thought, its insight, an assistant
 * reply, a mail sync that met a 429, and a job that failed. Each /metrics shows its part.
 */
describe('Prometheus metrics', () => {
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  let model: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let gateway: RunningGateway;
  const metricsOf = async (name: ServiceName) =>
    (await fetch(`${everything.stack.get(name).url}/metrics`)).text();

  beforeAll(async () => {
    // Chat turns get a text; structured answers get an empty object, which no schema accepts, so
    // the model's unusable answers show as errors and the local engine answers instead.
    model = await startOpenAiDouble({ reply: (r) => (r.format ? {} : 'You planted tomatoes.') });
    everything = await startEveryService({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test-key' });
    const urls = Object.fromEntries(everything.stack.services.map((s) => [s.name, s.url]));
    gateway = await startTestGateway(everything.stack.config, urls, everything.stack.get('auth').url);
  });
  afterAll(async () => {
    await gateway?.close();
    await everything?.stop();
    await model?.stop();
  });

  it('shows requests, jobs, queues, outbox, model and provider calls after a walk, without user ids', async () => {
    const { stack, google } = everything;
    const api = async (method: string, path: string, cookie: string | null, body?: unknown) => {
      const res = await fetch(gateway.url + path, {
        method,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
    };

    // A sign-up through the gateway (its verification mail is a job of the auth service).
    const signUp = await api('POST', '/api/register', null, {
      username: 'walker',
      name: 'Walker',
      email: 'walker@example.com',
      password: 'secret-pass-1',
    });
    expect(signUp.status).toBe(200);
    const [user] = await stack
      .get('auth')
      .deps.db.insert(users)
      .values({
        username: 'metered',
        email: 'metered@example.com',
        name: 'Metered',
        passwordHash: await hashPassword('secret-pass'),
        isEmailVerified: true,
      })
      .returning();
    const cookie = await sessionCookie(stack.config, user!.id);

    // A thought, and the insight of its day.
    const thought = await api('POST', '/api/thoughts', cookie, {
      content: 'Planted tomatoes with Sam.',
      clientDate: new Date().toISOString(),
      timezoneOffset: 0,
    });
    expect(thought.status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    await until(
      async () => (await api('GET', `/api/insights/daily?date=${today}`, cookie)).status === 200,
      20_000,
      'the day insight',
    );

    // An assistant reply.
    const conversation = await api('POST', '/api/conversations', cookie, { title: 'Garden' });
    const messages = `/api/conversations/${String(conversation.body.id)}/messages`;
    await api('POST', messages, cookie, { content: 'What did I plant?', type: 'user' });
    await api('POST', '/api/assistant/query', cookie, {
      query: 'What did I plant?',
      conversationId: conversation.body.id,
    });
    await until(
      async () => {
        const list = (await api('GET', messages, cookie)).body as unknown as Array<{ type: string }>;
        return Array.isArray(list) && list.some((m) => m.type === 'assistant');
      },
      20_000,
      'the assistant reply',
    );

    // A mail account connected, whose first sync meets one 429 and then succeeds.
    google.state.rateLimitNext = 1;
    google.state.retryAfterSeconds = 1;
    const started = await api('POST', '/api/integrations/google/auth', cookie, { type: 'email' });
    const back = new URL(
      (await fetch(String(started.body.authUrl), { redirect: 'manual' })).headers.get('location')!,
    );
    const connected = await api('POST', '/api/integrations/google/auth-complete', cookie, {
      type: 'email',
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
    });
    expect(connected.status).toBe(200);
    await until(
      async () =>
        valueOf(await metricsOf('integrations'), 'haven_job_duration_seconds_count', {
          queue: 'accounts.sync',
          outcome: 'completed',
        }) > 0,
      20_000,
      'a completed mail sync',
    );

    // A job that cannot succeed (its payload is not the contract's) fails at once.
    await stack
      .get('thoughts')
      .deps.queues.get('thought.transcribe')
      .add('thought.transcribe', {
        payload: { nonsense: true },
        meta: {},
      });
    await until(
      async () =>
        valueOf(await metricsOf('thoughts'), 'haven_queue_jobs', {
          queue: 'thought.transcribe',
          state: 'failed',
        }) === 1,
      10_000,
      'the failed job in the failed count',
    );

    const texts = Object.fromEntries(
      await Promise.all(stack.services.map(async (s) => [s.name, await metricsOf(s.name)] as const)),
    ) as Record<ServiceName, string>;
    const gatewayText = await (await fetch(gateway.metricsUrl!)).text();

    for (const [name, text] of Object.entries({ ...texts, gateway: gatewayText })) {
      // Process metrics, labelled by the service (the all-in-one process has one registry each).
      expect(valueOf(text, 'process_cpu_user_seconds_total', { service: name }), name).toBeGreaterThan(0);
      expect(valueOf(text, 'nodejs_heap_size_used_bytes', { service: name }), name).toBeGreaterThan(0);
      // Labels are route templates, never a concrete id.
      expect(text, name).not.toContain(`/api/conversations/${String(conversation.body.id)}`);
      expect(text, name).not.toMatch(/route="[^"]*\/\d+/);
    }
    for (const name of SERVICE_NAMES) {
      expect(texts[name], name).toContain('haven_outbox_pending_events{service="' + name + '"}');
      expect(texts[name], name).toContain('haven_outbox_oldest_pending_age_seconds{service="' + name + '"}');
    }

    // Requests by contract route and status, in the gateway and in the service that answered.
    const created = { method: 'POST', route: '/api/thoughts', status_code: '201' };
    expect(valueOf(gatewayText, 'haven_http_request_duration_seconds_count', created)).toBe(1);
    expect(valueOf(texts.thoughts, 'haven_http_request_duration_seconds_count', created)).toBe(1);
    expect(
      valueOf(texts.assistant, 'haven_http_request_duration_seconds_count', {
        route: '/api/conversations/:id/messages',
        method: 'POST',
      }),
    ).toBe(1);
    expect(
      valueOf(texts.auth, 'haven_http_request_duration_seconds_count', {
        route: '/api/register',
        status_code: '200',
      }),
    ).toBe(1);

    // Jobs and queues.
    expect(
      valueOf(texts.auth, 'haven_job_duration_seconds_count', { queue: 'mail.send', outcome: 'completed' }),
    ).toBeGreaterThan(0);
    expect(
      valueOf(texts.insights, 'haven_job_duration_seconds_count', {
        queue: 'insights.generate',
        outcome: 'completed',
      }),
    ).toBeGreaterThan(0);
    expect(
      valueOf(texts.thoughts, 'haven_job_duration_seconds_count', {
        queue: 'thought.transcribe',
        outcome: 'failed',
      }),
    ).toBe(1);
    expect(texts.assistant).toMatch(/haven_queue_jobs\{[^}]*queue="assistant\.reply"[^}]*state="completed"/);

    // Model calls: chat for the reply, structured answers refused by their schema, tokens counted.
    expect(
      valueOf(texts.assistant, 'haven_model_request_duration_seconds_count', {
        operation: 'chat',
        outcome: 'ok',
      }),
    ).toBeGreaterThan(0);
    expect(valueOf(texts.assistant, 'haven_model_tokens_total', { type: 'completion' })).toBeGreaterThan(0);
    expect(
      valueOf(texts.insights, 'haven_model_errors_total', { operation: 'json', kind: 'invalid_answer' }),
    ).toBeGreaterThan(0);

    // Provider calls, the 429 among them.
    expect(
      valueOf(texts.integrations, 'haven_provider_request_duration_seconds_count', {
        provider: 'google',
        status_code: '200',
      }),
    ).toBeGreaterThan(0);
    expect(valueOf(texts.integrations, 'haven_provider_rate_limited_total', { provider: 'google' })).toBe(1);
    // The model server and the other services are not providers.
    expect(texts.assistant).not.toContain('haven_provider_request_duration_seconds_count{');
  });

  it('is served on the internal ports only, never through the gateway’s public port', async () => {
    expect(await (await fetch(gateway.metricsUrl!)).text()).toContain('haven_http_request_duration_seconds');
    expect(await metricsOf('thoughts')).toContain('haven_http_request_duration_seconds');
    for (const path of [
      '/metrics',
      '/api/metrics',
      '/api/thoughts/../../metrics',
      '/api/thoughts/%2e%2e/%2e%2e/metrics',
    ]) {
      const answer = await rawGet(gateway.url, path);
      expect(answer.body, path).not.toContain('haven_http_request_duration_seconds');
      expect(answer.body, path).not.toContain('process_cpu_user_seconds_total');
    }
  });
});
