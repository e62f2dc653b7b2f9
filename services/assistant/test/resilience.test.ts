import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@haven/contracts/assistant';
import { BREAKER_HALF_OPEN_MS } from '@haven/kit/llm';
import { until } from '@haven/kit/testing';
import { startOpenAiDouble } from '../../../test/doubles/openai-server';
import { ASSISTANT_UNAVAILABLE } from '../src/domain/assistant';
import { startAssistantStack } from './harness';

const REAL_ANSWER = 'Here is a real answer.';

/**
 * A model server that hangs: with the default timeouts the user is told within 20 s that the
 * assistant is not answering, further questions are told at once without asking the model, and
 * questions are answered again on their own once it answers.
 */
describe('a model server that hangs', () => {
  let hang: Promise<void> | undefined;
  let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let stack: Awaited<ReturnType<typeof startAssistantStack>>;

  beforeAll(async () => {
    llm = await startOpenAiDouble({ reply: () => REAL_ANSWER, delay: () => hang });
    stack = await startAssistantStack({ OPENAI_BASE_URL: llm.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  const asked = (text: string) => llm.chatRequests().filter((r) => JSON.stringify(r.messages).includes(text));

  it('says so when the model server answers with errors, and answers again when it stops', async () => {
    const me = stack.as(6000);
    const c = await me.conversation();
    llm.state.fail = true;
    const failed = await me.ask(c.id, 'Anyone home? (500)');
    expect(failed).toMatchObject({ content: ASSISTANT_UNAVAILABLE, metadata: { failed: true } });
    expect(asked('(500)')).toHaveLength(2);
    llm.state.fail = false;
    expect((await me.ask(c.id, 'Anyone home now?')).content).toBe(REAL_ANSWER);
  });

  it('says so within 20 s, then at once, and answers again once the model is back', async () => {
    let recover!: () => void;
    hang = new Promise<void>((resolve) => (recover = resolve));
    const me = stack.as(6001);
    const c = await me.conversation();

    const started = Date.now();
    const first = await me.ask(c.id, 'Are you there? (first)');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(first).toMatchObject({ content: ASSISTANT_UNAVAILABLE, metadata: { failed: true } });
    // Given up after a timeout and one more try, not after minutes of retries.
    expect(asked('(first)')).toHaveLength(2);

    await me.ask(c.id, 'Are you there? (second)');
    // The model server has now failed three calls in a row: the next question is not sent to it.
    const third = await me.ask(c.id, 'Are you there? (third)');
    expect(third.content).toBe(ASSISTANT_UNAVAILABLE);
    expect(asked('(third)')).toHaveLength(0);

    hang = undefined;
    recover();
    let n = 0;
    let answer: Message | undefined;
    await until(
      async () => {
        answer = await me.ask(c.id, `Are you back? (${++n})`);
        return answer.content === REAL_ANSWER;
      },
      BREAKER_HALF_OPEN_MS + 20_000,
      'a real answer',
    );
    expect(answer).toMatchObject({ content: REAL_ANSWER, metadata: { engine: 'ai' } });
  }, 90_000);
});

/** Fifty questions sent at once by one user do not hold up another user's question. */
describe('replies of several users', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let stack: Awaited<ReturnType<typeof startAssistantStack>>;

  beforeAll(async () => {
    // Every answer takes 1.5 s: fifty of them in the shared workers (4 at a time) take 19 s.
    llm = await startOpenAiDouble({
      reply: (r) => `Answer to: ${r.user}`,
      delay: () => new Promise((resolve) => setTimeout(resolve, 1500)),
    });
    stack = await startAssistantStack({ OPENAI_BASE_URL: llm.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await llm?.stop();
  });

  it("answer another user's question within 10 s while one user has fifty waiting", async () => {
    const flood = stack.as(6101);
    const other = stack.as(6102);
    const started = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        flood.create({ title: 'New Conversation', content: `Flood question ${i}` }),
      ),
    );
    expect(started.map((r) => r.status)).toEqual(Array(50).fill(201));
    // The flood's jobs are queued (and the first of them running) before the other user asks.
    await until(() => llm.chatRequests().length > 0, 10_000, 'the first flood question reaching the model');

    const c = await other.conversation();
    const asking = Date.now();
    const reply = await other.ask(c.id, 'A question of my own');
    expect(reply.content).toBe('Answer to: A question of my own');
    expect(Date.now() - asking).toBeLessThan(10_000);

    // The flood is still being answered, one at a time, and none of it is lost.
    const answered = async () => {
      const lists = await Promise.all(
        started.map(async (r) => (await flood.messages((r.body as Conversation).id)).body as Message[]),
      );
      return lists.filter((list) => list.some((m) => m.type === 'assistant')).length;
    };
    expect(await answered()).toBeLessThan(50);
  }, 60_000);
});
