import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../test/doubles/openai-server';
import { rawContent, startOpenAiDouble } from '../../../test/doubles/openai-server';
import { insights } from '../src/db/schema';
import { startInsightsStack } from './harness';

/** What the model double answers: a function of the request, switched per test. */
let answer: (request: ChatRequest) => unknown = () => ({});
let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
let strict: Awaited<ReturnType<typeof startOpenAiDouble>>;
let stack: Awaited<ReturnType<typeof startInsightsStack>>;
let objectOnly: Awaited<ReturnType<typeof startInsightsStack>>;
let nextUser = 2000;

const good = {
  summary: 'You planned the launch and made time for a run.',
  summaryReferences: ['#1', '#2'],
  themes: [
    { title: 'Work: the launch', description: 'The launch came up twice.', references: ['#1', '#99'] },
    { title: 'Other: invented', description: 'Cites nothing real.', references: ['#42', '12345'] },
  ],
  suggestions: [
    {
      title: 'Email Sarah the launch summary',
      description: 'You meant to.',
      references: ['#2'],
      prefill: { email: { to: 'Sarah', subject: 'Launch summary', body: 'Hi Sarah,' } },
    },
  ],
};

beforeAll(async () => {
  llm = await startOpenAiDouble({ reply: (r) => answer(r) });
  strict = await startOpenAiDouble({ reply: (r) => answer(r), refuseJsonSchema: true });
  stack = await startInsightsStack({ OPENAI_BASE_URL: llm.url });
  objectOnly = await startInsightsStack({ OPENAI_BASE_URL: strict.url, OPENAI_API_KEY: 'test-key' });
});
afterAll(async () => {
  await stack?.stop();
  await objectOnly?.stop();
  await llm?.stop();
  await strict?.stop();
});

describe('insights with a model (any OpenAI-compatible server; a base URL alone, as Ollama)', () => {
  it('stores a valid structured answer, cited by real thoughts of the period only', async () => {
    answer = () => good;
    const me = stack.as(nextUser++);
    const a = await me.write('The launch plan is slipping.', '2025-03-05');
    const b = await me.write('I need to email Sarah the summary tomorrow.', '2025-03-05');
    const elsewhere = await me.write('Not this day.', '2025-03-06');
    const { body } = await me.insight('2025-03-05');
    expect(body).toMatchObject({ engine: 'ai', summary: good.summary, summaryReferences: [a.id, b.id] });
    // '#99' and '12345' are no thought of the prompt: dropped; the theme citing nothing else is dropped.
    expect(body.themes).toEqual([
      { title: 'Work: the launch', description: 'The launch came up twice.', references: [a.id] },
    ]);
    // A first name the model put in To is no address: it becomes the name the greeting uses.
    expect(body.suggestions[0]).toMatchObject({ references: [b.id], prefill: { email: { name: 'Sarah' } } });
    expect(body.suggestions[0]!.prefill!.email!.to).toBeUndefined();
    const cited = [
      ...body.summaryReferences,
      ...body.themes.flatMap((x) => x.references),
      ...body.suggestions.flatMap((x) => x.references),
    ];
    expect(cited).not.toContain(elsewhere.id);
    const sent = llm.chatRequests().at(-1)!;
    expect(JSON.stringify(sent)).toContain('#2 (Wed 2025-03-05, personal): I need to email Sarah');
    expect(JSON.stringify(sent)).not.toContain('Not this day.');
  });

  it('is idempotent: running the same job twice leaves one insight', async () => {
    answer = () => good;
    const me = stack.as(nextUser++);
    await me.write('Twice is once.', '2025-03-07');
    await me.insight('2025-03-07');
    const svc = stack.get('insights');
    const rows = async () =>
      (await svc.deps.db.select().from(insights)).filter((r) => r.userId === me.userId);
    const [row] = await rows();
    await svc.deps.queues.add('insights.generate', {
      userId: me.userId,
      range: 'day',
      periodStart: '2025-03-07',
      request: row!.request,
    });
    await new Promise((r) => setTimeout(r, 300));
    const after = await rows();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ request: row!.request, generatedAt: row!.generatedAt });
  });

  it('falls back to the local engine after two answers that are not the schema', async () => {
    answer = () => rawContent('Here are your insights: you did great!');
    const me = stack.as(nextUser++);
    await me.write('Garbage from the model twice.', '2025-03-08');
    const before = llm.chatRequests().length;
    const { body } = await me.insight('2025-03-08');
    expect(body.engine).toBe('basic');
    expect(body.summary).toContain('Garbage from the model twice.');
    const asked = llm
      .chatRequests()
      .slice(before)
      .filter((r) => JSON.stringify(r).includes('Garbage from the model'));
    expect(asked).toHaveLength(2);
  });

  it('sends no thought text to the model when the user turned content sharing off', async () => {
    answer = () => good;
    const me = stack.as(nextUser++);
    expect((await me.preferences({ includeThoughtContent: false })).status).toBe(200);
    await me.write('A very private sentence about my health.', '2025-03-09');
    const before = llm.calls.length;
    const { body } = await me.insight('2025-03-09');
    expect(body.engine).toBe('basic');
    expect(llm.calls.slice(before).some((c) => c.body.includes('very private sentence'))).toBe(false);
    expect(llm.calls.length).toBe(before);
  });
});

describe('a server that refuses json_schema', () => {
  it('still works, through a JSON object with the schema in the prompt', async () => {
    answer = () => good;
    const me = objectOnly.as(nextUser++);
    await me.write('The launch plan is slipping.', '2025-03-05');
    await me.write('I need to email Sarah the summary tomorrow.', '2025-03-05');
    const { body } = await me.insight('2025-03-05');
    expect(body.engine).toBe('ai');
    const formats = strict.chatRequests().map((r) => (r.response_format as { type: string }).type);
    // Refused, then asked for a JSON object with the schema in the prompt: per request (nothing
    // learnt for the whole process; OPENAI_JSON_MODE=json_object asks that way from the start).
    expect(formats.slice(0, 2)).toEqual(['json_schema', 'json_object']);
    expect(formats.length % 2).toBe(0);
    expect(JSON.stringify(strict.chatRequests()[1])).toContain('JSON Schema');
  });
});
