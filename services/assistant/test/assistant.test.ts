import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@haven/contracts/assistant';
import { messages } from '../src/db/schema';
import { AI_NOT_CONFIGURED } from '../src/domain/local-reply';
import { startAssistantStack } from './harness';

let stack: Awaited<ReturnType<typeof startAssistantStack>>;
let nextUser = 3000;
beforeAll(async () => {
  stack = await startAssistantStack();
});
afterAll(async () => stack?.stop());

describe('conversations', () => {
  it('creates, titles by the spec’s rule, lists newest first, and deletes with their messages', async () => {
    const me = stack.as(nextUser++);
    const plain = await me.conversation();
    expect(plain).toMatchObject({ title: 'New Conversation', emailUsed: false, calendarUsed: false });
    const long = (await me.create({ content: 'Can you help me plan the launch of the new product line?' }))
      .body as Conversation;
    expect(long.title).toBe('Can you help me plan the launc...');
    // A conversation without messages has nothing to show: only the one with a message is listed.
    const list = (await me.list()).body as Conversation[];
    expect(list.map((c) => c.id)).toEqual([long.id]);
    await me.post(plain.id, 'hello again');
    expect(((await me.list()).body as Conversation[]).map((c) => c.id)).toEqual([plain.id, long.id]);

    expect(await me.remove(long.id)).toMatchObject({ status: 200, body: { success: true } });
    expect((await me.get(long.id)).status).toBe(404);
    const left = await stack.get('assistant').deps.db.select().from(messages);
    expect(left.some((m) => m.conversationId === long.id)).toBe(false);
  });

  it('answers 404 for another user’s conversation on every route', async () => {
    const me = stack.as(nextUser++);
    const stranger = stack.as(nextUser++);
    const mine = await me.conversation('private plans');
    expect((await stranger.get(mine.id)).status).toBe(404);
    expect((await stranger.messages(mine.id)).status).toBe(404);
    expect((await stranger.post(mine.id, 'intrude')).status).toBe(404);
    expect((await stranger.query(mine.id, 'intrude')).status).toBe(404);
    expect((await stranger.remove(mine.id)).status).toBe(404);
    expect(((await stranger.list()).body as Conversation[]).length).toBe(0);
    expect((await me.get(mine.id)).status).toBe(200);
  });

  it('lists messages oldest first, or the latest three, and refuses bad input with 400', async () => {
    const me = stack.as(nextUser++);
    const c = await me.conversation();
    for (const text of ['one', 'two', 'three', 'four']) await me.post(c.id, text);
    const all = ((await me.messages(c.id)).body as Message[]).filter((m) => m.type === 'user');
    expect(all.map((m) => m.content)).toEqual(['one', 'two', 'three', 'four']);
    const latest = (await me.messages(c.id, 3)).body as Message[];
    expect(latest.map((m) => m.content)).toEqual(['two', 'three', 'four']);
    expect((await me.post(c.id, '   ')).status).toBe(400);
    expect((await me.messages(c.id, 0)).status).toBe(400);
    expect((await me.get(0)).status).toBe(400);
  });

  it('shows the e-mail badge from the title and the latest three messages, never a calendar one from words', async () => {
    const me = stack.as(nextUser++);
    const c = await me.conversation('Sort my inbox');
    expect(((await me.get(c.id)).body as Conversation).emailUsed).toBe(true);
    // 'meeting' and 'reminder' were calendar words; no calendar was read, so no calendar badge.
    await me.post(c.id, 'and book a meeting with Tom, set a reminder');
    expect((await me.get(c.id)).body).toMatchObject({ emailUsed: true, calendarUsed: false });
  });
});

describe('replies without a model', () => {
  it('start from the capture dialog’s chat entry, say AI is not configured, and list matching thoughts', async () => {
    const me = stack.as(nextUser++);
    await me.write('The launch plan is slipping again.', '2025-03-03T09:00:00.000Z', 0, ['work']);
    await me.write('Lovely walk by the sea.', '2025-03-04T09:00:00.000Z');
    const created = (
      await me.create({ content: 'Can you remind me what I wrote about the launch?', isVoice: false })
    ).body as Conversation;
    const [first] = (await me.messages(created.id)).body as Message[];
    const reply = await me.replyTo(first!.id, created.id);
    expect(reply.content).toContain(AI_NOT_CONFIGURED);
    expect(reply.content).toContain('The launch plan is slipping again.');
    expect(reply.content).not.toContain('Lovely walk');
  });

  it('answer "what did I write yesterday?" with the user’s own yesterday, in their time zone', async () => {
    const me = stack.as(nextUser++);
    // UTC+10: the user's today starts ten hours before UTC's.
    const offset = -600;
    const local = new Date(Date.now() - offset * 60_000);
    const yesterday = new Date(local);
    yesterday.setUTCDate(local.getUTCDate() - 1);
    const y = yesterday.toISOString().slice(0, 10);
    const atLocal = (day: string, hour: number) =>
      new Date(Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`) + offset * 60_000).toISOString();
    await me.write('Yesterday I fixed the bike.', atLocal(y, 9), offset);
    await me.write('Today I rode it.', atLocal(local.toISOString().slice(0, 10), 9), offset);
    const c = await me.conversation();
    const reply = await me.ask(c.id, 'What did I write yesterday?', offset);
    expect(reply.content).toContain('Yesterday I fixed the bike.');
    expect(reply.content).not.toContain('Today I rode it.');
  });

  it('reads "this week" as the user’s Monday-to-Sunday week and cites the Tom thought of it, not “tomorrow”', async () => {
    const me = stack.as(nextUser++);
    const local = new Date();
    const today = local.toISOString().slice(0, 10);
    const shift = (day: string, n: number) => {
      const d = new Date(`${day}T12:00:00Z`);
      d.setUTCDate(d.getUTCDate() + n);
      return d.toISOString().slice(0, 10);
    };
    const monday = shift(today, -((local.getUTCDay() + 6) % 7));
    // Thursday of this week, or today when the week has not reached Thursday yet.
    const thursday = [shift(monday, 3), today].sort()[0]!;
    const lastWeek = shift(monday, -3);
    const tom = await me.write(
      'Lunch with Tom: he is moving to Leeds in spring.',
      `${thursday}T10:00:00.000Z`,
    );
    await me.write('Call mum tomorrow about the tickets.', `${monday}T08:00:00.000Z`);
    await me.write('Tom lent me his bike.', `${lastWeek}T08:00:00.000Z`);
    const c = await me.conversation();
    const reply = await me.ask(c.id, 'What did I write about Tom this week?');
    expect(reply.content).toContain(AI_NOT_CONFIGURED);
    expect(reply.content).toContain('Lunch with Tom: he is moving to Leeds in spring. [#1]');
    expect(reply.content).not.toContain('Call mum');
    expect(reply.content).not.toContain('bike');
    expect(reply.metadata).toMatchObject({ engine: 'basic', references: [tom.id] });
  });

  it('lists a named month’s entries, each cited, and says honestly when it does not know a birthday', async () => {
    const me = stack.as(nextUser++);
    const march = [
      await me.write('First of March, windy.', '2024-03-01T10:00:00.000Z'),
      await me.write('Last of March, sunny.', '2024-03-31T10:00:00.000Z'),
    ];
    await me.write('April now.', '2024-04-01T10:00:00.000Z');
    const c = await me.conversation();
    const reply = await me.ask(c.id, 'What did I write in March 2024?');
    expect(reply.content).toContain('First of March, windy. [#1]');
    expect(reply.content).toContain('Last of March, sunny. [#2]');
    expect(reply.content).not.toContain('April now');
    expect(reply.metadata).toMatchObject({ references: march.map((t) => t.id) });
    const birthday = await me.ask(c.id, 'What did I write on my birthday last year?');
    expect(birthday.content).toContain("I don't know your birthday");
  });

  it('writes exactly one reply however often it is asked', async () => {
    const me = stack.as(nextUser++);
    const c = await me.conversation();
    const posted = (await me.post(c.id, 'Anything about bees?')).body as Message;
    await Promise.all([me.query(c.id, 'Anything about bees?'), me.query(c.id, 'Anything about bees?')]);
    await me.replyTo(posted.id, c.id);
    // A replayed job changes nothing either.
    await stack
      .get('assistant')
      .deps.queues.add(
        'assistant.reply',
        { userId: me.userId, conversationId: c.id, messageId: posted.id },
        {},
        { jobId: 'replay' } as never,
      );
    await new Promise((r) => setTimeout(r, 300));
    const all = (await me.messages(c.id)).body as Message[];
    expect(all.map((m) => m.type)).toEqual(['user', 'assistant']);
  });

  it('takes a second click that arrives after the reply for the same ask, and a new question for a new one', async () => {
    const me = stack.as(nextUser++);
    const c = await me.conversation();
    const posted = (await me.post(c.id, 'Anything about bees?')).body as Message;
    await me.query(c.id, 'Anything about bees?');
    await me.replyTo(posted.id, c.id);
    await me.query(c.id, 'Anything about bees?');
    await new Promise((r) => setTimeout(r, 300));
    expect(((await me.messages(c.id)).body as Message[]).map((m) => m.type)).toEqual(['user', 'assistant']);

    await me.query(c.id, 'And about honey?');
    await expect.poll(async () => ((await me.messages(c.id)).body as Message[]).length).toBe(4);
  });

  it('stores a question asked many times at once without storing it first only once', async () => {
    const me = stack.as(nextUser++);
    const c = await me.conversation();
    await Promise.all(Array.from({ length: 6 }, () => me.query(c.id, 'Anything about wasps?')));
    await expect.poll(async () => ((await me.messages(c.id)).body as Message[]).length).toBe(2);
    await new Promise((r) => setTimeout(r, 300));
    const all = (await me.messages(c.id)).body as Message[];
    expect(all.map((m) => m.type)).toEqual(['user', 'assistant']);
  });
});
