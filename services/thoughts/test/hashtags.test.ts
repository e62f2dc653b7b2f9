import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TagCount, Thought } from '@haven/contracts/thoughts';
import { startTestServices } from '@haven/kit/testing';
import { thoughtsService } from '../src/service';

let stack: Awaited<ReturnType<typeof startTestServices>>;
let nextUser = 900;

beforeAll(async () => {
  stack = await startTestServices([thoughtsService]);
});
afterAll(async () => stack?.stop());

/** A client acting as one user through the public routes, as the gateway forwards them. */
function as(userId = nextUser++) {
  const create = async (body: Record<string, unknown>) => {
    const res = await stack.call('thoughts', userId, 'POST', '/api/thoughts', body);
    expect(res.status).toBe(201);
    return res.body as Thought;
  };
  const tags = async () => {
    const res = await stack.call('thoughts', userId, 'GET', '/api/thoughts/tags');
    expect(res.status).toBe(200);
    return res.body as TagCount[];
  };
  return { create, tags };
}

describe('#tags typed in a capture', () => {
  it('become tags of the thought, read as imports read them', async () => {
    const me = as();
    expect((await me.create({ content: 'Ran 5k this morning #health #running' })).tags).toEqual([
      'health',
      'running',
    ]);
    const saved = await me.create({
      content: [
        'Notes from https://x.com/#anchor and www.example.com/#frag',
        'The year `#not` in code, #2024 alone, #fff colour, a#b glued',
        '```',
        '#fenced',
        '```',
        '    #indented stays prose in a typed note',
        '#Health again, then #health, #deep-work and #books/fiction.',
      ].join('\n'),
    });
    expect(saved.tags).toEqual(['indented', 'Health', 'deep-work', 'books/fiction']);
  });

  it('join the tags sent with the thought, first spelling kept, at most 20 of at most 40 characters', async () => {
    const me = as();
    expect((await me.create({ content: 'Walk #Garden #Evening', tags: ['garden', 'sun'] })).tags).toEqual([
      'garden',
      'sun',
      'Evening',
    ]);
    const many = Array.from({ length: 25 }, (_, i) => `#tag${i}x`).join(' ');
    expect((await me.create({ content: many })).tags).toHaveLength(20);
    expect((await me.create({ content: `#${'a'.repeat(41)} #ok` })).tags).toEqual(['ok']);
  });

  it('are offered back with their counts, per user', async () => {
    const me = as();
    await me.create({ content: 'one #Reading' });
    await me.create({ content: 'two #reading #sleep' });
    await as().create({ content: 'someone else #secret' });
    expect(await me.tags()).toEqual([
      // The latest spelling of a tag is the one offered.
      { tag: 'reading', count: 2 },
      { tag: 'sleep', count: 1 },
    ]);
  });
});
