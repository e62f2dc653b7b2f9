import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@haven/contracts/assistant';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { repoPath } from '@haven/kit/paths';
import { startService } from '@haven/kit/service';
import { createLogger } from '@haven/kit/logger';
import { until } from '@haven/kit/testing';
import type { ChatRequest } from '../../../test/doubles/openai-server';
import { startOpenAiDouble, toolCalls } from '../../../test/doubles/openai-server';
import { REPLY_FAILED } from '../src/domain/assistant';
import { assistantService } from '../src/service';
import { startAssistantStack } from './harness';

/** What the model double answers; switched per test. */
let answer: (request: ChatRequest) => unknown = () => 'Hello!';
/** While set, the double holds its answer until it resolves. */
let hold: Promise<void> | undefined;
let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
let stack: Awaited<ReturnType<typeof startAssistantStack>>;
let nextUser = 4000;

beforeAll(async () => {
  llm = await startOpenAiDouble({
    reply: (r) => answer(r),
    delay: () => hold,
  });
  stack = await startAssistantStack({ OPENAI_BASE_URL: llm.url, JOB_BACKOFF_MS: '20' });
});
afterAll(async () => {
  await stack?.stop();
  await llm?.stop();
});

const lastUserRequests = (text: string) =>
  llm.chatRequests().filter((r) => JSON.stringify(r.messages).includes(text));

describe('replies with a model and tools', () => {
  it('run the tools against the user’s own thoughts, and nothing of another user reaches the model', async () => {
    const me = stack.as(nextUser++);
    const other = stack.as(nextUser++);
    const mine = await me.write('The launch plan is slipping; Anna is worried.', '2025-03-03T09:00:00.000Z');
    await other.write('Secret launch codes of another person.', '2025-03-03T09:00:00.000Z');
    answer = (r) => {
      const tool = r.messages.find((m) => m.role === 'tool');
      if (!tool) return toolCalls([{ name: 'search_thoughts', arguments: { query: 'launch' } }]);
      const [entry] = JSON.parse(tool.content!).untrusted_data;
      return `From your journal: ${entry.content}${entry.cite === '#1' ? '' : ' (no citation)'}`;
    };
    const c = await me.conversation();
    const reply = await me.ask(c.id, 'What did I write about the launch? (tools)');
    expect(reply.content).toBe('From your journal: The launch plan is slipping; Anna is worried.');
    expect(reply.metadata).toMatchObject({ engine: 'ai', tools: ['search_thoughts'], references: [mine.id] });
    const sent = JSON.stringify(lastUserRequests('What did I write about the launch? (tools)'));
    expect(sent).toContain('Anna is worried');
    expect(sent).not.toContain('Secret launch codes');
  });

  it('offers no thought tools and sends no thought text when content sharing is off', async () => {
    const me = stack.as(nextUser++);
    await me.write('My private diary entry about Paris.', '2025-03-03T09:00:00.000Z');
    await me.preferences({ includeThoughtContent: false });
    answer = () => 'I cannot read your thoughts.';
    const c = await me.conversation();
    await me.ask(c.id, 'What did I write about Paris? (private)');
    const requests = lastUserRequests('(private)');
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) {
      const names = ((r.tools as Array<{ function: { name: string } }>) ?? []).map((t) => t.function.name);
      expect(names).not.toContain('search_thoughts');
      expect(names).not.toContain('thoughts_on');
      expect(JSON.stringify(r)).not.toContain('private diary entry');
    }
  });

  it('states today’s date in the user’s time zone', async () => {
    const me = stack.as(nextUser++);
    answer = () => 'Noted.';
    const c = await me.conversation();
    // UTC−10 and UTC+14 are a day apart or more for most of the day: each sees its own today.
    for (const offset of [600, -840]) {
      const today = new Date(Date.now() - offset * 60_000).toISOString().slice(0, 10);
      await me.ask(c.id, `Which day is it? (${offset})`, offset);
      const [request] = lastUserRequests(`Which day is it? (${offset})`);
      expect(request!.messages[0]!.content).toContain(`(${today})`);
    }
  });

  it('tells the model the days the question names, as a range of the user’s days', async () => {
    const me = stack.as(nextUser++);
    answer = () => 'Noted.';
    const c = await me.conversation();
    const today = new Date().toISOString().slice(0, 10);
    const day = (n: number) => {
      const d = new Date(`${today}T12:00:00Z`);
      d.setUTCDate(d.getUTCDate() + n);
      return d.toISOString().slice(0, 10);
    };
    const monday = day(-((new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7));
    const lastMonday = new Date(`${monday}T12:00:00Z`);
    lastMonday.setUTCDate(lastMonday.getUTCDate() - 7);
    const start = lastMonday.toISOString().slice(0, 10);
    lastMonday.setUTCDate(lastMonday.getUTCDate() + 6);
    await me.ask(c.id, 'What did I write about the launch last week? (period)');
    const [request] = lastUserRequests('(period)');
    expect(request!.messages[0]!.content).toContain(
      `The question names the days ${start} to ${lastMonday.toISOString().slice(0, 10)}`,
    );
  });

  it('turns a draft_email call into a message the SPA recognises as an e-mail, sending nothing', async () => {
    const me = stack.as(nextUser++);
    answer = (r) =>
      r.messages.some((m: { role: string }) => m.role === 'tool')
        ? 'Here is a draft for you to review.'
        : toolCalls([
            {
              name: 'draft_email',
              arguments: {
                to: 'sarah@example.com',
                subject: 'Launch summary',
                body: 'Hi Sarah,\n\nHere is the summary of the launch plan we discussed this week.\n\nBest',
              },
            },
          ]);
    const c = await me.conversation();
    const reply = await me.ask(c.id, 'Draft an email to Sarah about the launch');
    expect(reply.content).toContain('To: sarah@example.com\nSubject: Launch summary');
    expect(reply.metadata).toMatchObject({ drafts: [{ subject: 'Launch summary' }] });
    expect((await me.get(c.id)).body).toMatchObject({ emailUsed: true });
  });
});

describe('exactly one reply', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'after the worker process is killed mid-reply and another takes the job over (needs DATABASE_URL)',
    async () => {
      // The stack's own assistant runs no workers: a separate process takes the job, and dies.
      const crash = await startAssistantStack({
        OPENAI_BASE_URL: llm.url,
        RUN_WORKERS: 'false',
        JOB_LOCK_MS: '1000',
      });
      const env = {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: crash.databaseUrl,
        REDIS_URL: crash.config.REDIS_URL,
        REDIS_PREFIX: crash.config.REDIS_PREFIX,
        INTERNAL_SECRET: crash.config.INTERNAL_SECRET,
        DATA_ENCRYPTION_KEY: crash.config.DATA_ENCRYPTION_KEY,
        OPENAI_BASE_URL: llm.url,
        AUTH_URL: crash.urls().auth,
        THOUGHTS_URL: crash.urls().thoughts,
        JOB_LOCK_MS: '1000',
      };
      // One process (node with tsx as a loader, not the tsx wrapper): SIGKILL must kill the worker itself.
      const worker = spawn(
        process.execPath,
        ['--import', 'tsx', repoPath('services', 'assistant', 'src', 'main.ts')],
        {
          env,
          stdio: 'ignore',
        },
      );
      let second: Awaited<ReturnType<typeof startService>> | undefined;
      try {
        answer = () => 'The one and only reply.';
        let release!: () => void;
        hold = new Promise<void>((r) => (release = r));
        const me = crash.as(nextUser++);
        const c = await me.conversation();
        const posted = (await me.post(c.id, 'Reply once (crash)')).body as Message;
        await me.query(c.id, 'Reply once (crash)');
        await until(
          () => lastUserRequests('Reply once (crash)').length === 1,
          // A process of its own (tsx compiles it first): slow to start on a busy machine.
          60_000,
          'the worker process asked the model',
        );
        worker.kill('SIGKILL');
        await once(worker, 'exit');
        hold = undefined;
        release();
        second = await startService(assistantService, {
          config: { ...crash.config, RUN_WORKERS: true },
          database: crash.database,
          port: 0,
          serviceUrls: crash.urls,
          log: createLogger({ name: 'assistant-2', level: 'silent' }),
        });
        await me.replyTo(posted.id, c.id);
        await new Promise((r) => setTimeout(r, 500));
        const all = (await me.messages(c.id)).body as Message[];
        expect(all.map((m) => [m.type, m.content])).toEqual([
          ['user', 'Reply once (crash)'],
          ['assistant', 'The one and only reply.'],
        ]);
      } finally {
        worker.kill('SIGKILL');
        await second?.close();
        await crash.stop();
      }
    },
    120_000,
  );

  it('ends with the failure message, once, when every attempt fails', async () => {
    // The model answers, with nothing: each attempt of the job fails, until the last.
    const failing = await startOpenAiDouble({ reply: () => '' });
    const broken = await startAssistantStack({ OPENAI_BASE_URL: failing.url, JOB_BACKOFF_MS: '10' });
    try {
      const me = broken.as(nextUser++);
      const c = await me.conversation();
      const reply = await me.ask(c.id, 'Will this work?');
      expect(reply).toMatchObject({ content: REPLY_FAILED, metadata: { failed: true } });
      await new Promise((r) => setTimeout(r, 300));
      expect(
        ((await me.messages(c.id)).body as Message[]).filter((m) => m.type === 'assistant'),
      ).toHaveLength(1);
    } finally {
      await broken.stop();
      await failing.stop();
    }
  });
});
