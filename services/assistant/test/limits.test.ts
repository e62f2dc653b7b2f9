import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '@haven/contracts/assistant';
import { startAssistantStack } from './harness';

let stack: Awaited<ReturnType<typeof startAssistantStack>>;
beforeAll(async () => {
  stack = await startAssistantStack();
});
afterAll(async () => stack?.stop());

const tooMany = {
  message: expect.stringMatching(/^Too many attempts\. Please try again in \d+ minutes?\.$/),
};

/** Per-user limits on what costs storage and model work, each user counted on their own. */
describe('per-user limits', () => {
  it('refuses the 101st conversation of an hour with a 429, writing nothing, and not for others', async () => {
    const me = stack.as(7001);
    for (let i = 0; i < 100; i++) expect((await me.create({ title: `Plan ${i}` })).status).toBe(201);
    const refused = await me.create({ title: 'One too many', content: 'and its question' });
    expect(refused).toMatchObject({ status: 429, body: tooMany });
    expect((await stack.as(7002).create({ title: 'Mine' })).status).toBe(201);
    const { rows } = (await stack
      .get('assistant')
      .deps.db.execute(
        sql`select count(*)::int as n from assistant.conversations where user_id = 7001`,
      )) as unknown as { rows: Array<{ n: number }> };
    expect(rows[0]!.n).toBe(100);
  });

  it('refuses the 121st question of an hour with a 429', async () => {
    const me = stack.as(7003);
    const c = (await me.create({ title: 'Questions' })).body as Conversation;
    // Asking about the same stored message is one reply, so only the limit is exercised here.
    await me.post(c.id, 'What did I plan?');
    for (let i = 0; i < 120; i++) expect((await me.query(c.id, 'What did I plan?')).status).toBe(202);
    expect(await me.query(c.id, 'What did I plan?')).toMatchObject({ status: 429, body: tooMany });
    expect((await stack.as(7004).create({ title: 'Mine' })).status).toBe(201);
  });
});
