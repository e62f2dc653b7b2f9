import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Thought } from '@haven/contracts/thoughts';
import { generateKey } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import { createLogger } from '@haven/kit/logger';
import { startService } from '@haven/kit/service';
import { internalHeaders, startTestServices, until } from '@haven/kit/testing';
import { thoughtsService } from '../src/service';

let stack: Awaited<ReturnType<typeof startTestServices>>;
let db: Db;
let nextUser = 500;

beforeAll(async () => {
  stack = await startTestServices([thoughtsService]);
  db = stack.get('thoughts').deps.db;
});
afterAll(async () => stack?.stop());

type RawRow = Record<string, unknown>;

/** Rows of a raw query (both drivers answer `{ rows }`). */
const query = async (statement: ReturnType<typeof sql>) =>
  ((await db.execute(statement)) as { rows: RawRow[] }).rows;

/** The stored rows exactly as the database holds them, every column. */
const rawRows = (where = sql`true`) => query(sql`select * from thoughts.thoughts where ${where} order by id`);
const rawRow = async (id: number) => (await rawRows(sql`id = ${id}`))[0]!;

/** A client acting as one user: public routes as the gateway, the search as the assistant. */
function as(userId = nextUser++) {
  const create = async (body: Record<string, unknown>) => {
    const res = await stack.call('thoughts', userId, 'POST', '/api/thoughts', {
      clientDate: '2025-03-01T12:00:00.000Z',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body as Thought;
  };
  const search = async (q: string) => {
    const res = await fetch(
      `${stack.get('thoughts').url}/internal/thoughts/search?q=${encodeURIComponent(q)}`,
      { headers: internalHeaders(stack.config, userId, 'thoughts', 'assistant') },
    );
    expect(res.status).toBe(200);
    return (await res.json()) as Thought[];
  };
  const all = async () =>
    (await stack.call('thoughts', userId, 'GET', '/api/thoughts/all')).body as Thought[];
  const patch = (id: number, body: unknown) =>
    stack.call('thoughts', userId, 'PATCH', `/api/thoughts/${id}`, body);
  return { userId, create, search, all, patch };
}

/** Every tag word of a row, if it shows anywhere in any column (case-insensitive). */
function leaked(row: RawRow, words: string[]): string[] {
  const text = JSON.stringify(row).toLowerCase();
  return words.filter((w) => text.includes(w.toLowerCase()));
}

/** Another instance of the thoughts service on the same database, as a deploy or a restart starts one. */
async function startAnotherInstance(overrides: Record<string, string> = {}) {
  return startService(thoughtsService, {
    config: { ...stack.config, ...overrides },
    database: stack.database,
    port: 0,
    log: createLogger({ name: 'thoughts', level: 'silent' }),
    serviceUrls: stack.urls,
  });
}

describe('tags at rest', () => {
  it('stores no tag text anywhere in the row, and answers them decrypted', async () => {
    const me = as();
    const created = await me.create({
      content: 'Planted bulbs by the fence',
      tags: ['Marigold', 'tulipfield'],
    });
    expect(created.tags).toEqual(['Marigold', 'tulipfield']);
    expect(leaked(await rawRow(created.id), ['marigold', 'tulipfield', 'bulbs'])).toEqual([]);
    expect((await me.all()).map((t) => t.tags)).toEqual([['Marigold', 'tulipfield']]);

    const edited = await me.patch(created.id, { tags: ['Peonybed'] });
    expect(edited.body).toMatchObject({ tags: ['Peonybed'] });
    expect(leaked(await rawRow(created.id), ['peonybed', 'marigold', 'tulipfield'])).toEqual([]);
    expect((await me.all()).map((t) => t.tags)).toEqual([['Peonybed']]);
  });

  it('finds thoughts by tag through the internal search, exact tag matches first', async () => {
    const me = as();
    const tagged = await me.create({
      content: 'A quiet morning',
      tags: ['Heliotrope'],
      clientDate: '2025-03-01T08:00:00.000Z',
    });
    const mentioned = await me.create({
      content: 'Read about heliotropes',
      clientDate: '2025-03-02T08:00:00.000Z',
    });
    const partial = await me.create({ content: 'Nothing here', tags: ['heliotrope-seeds'] });
    await as().create({ content: 'Not mine', tags: ['Heliotrope'] });

    const found = await me.search('  HELIOTROPE ');
    expect(found.map((t) => t.id)).toEqual([tagged.id, mentioned.id, partial.id]);
    expect(found[0]!.tags).toEqual(['Heliotrope']);
    expect((await me.search('seeds')).map((t) => t.tags)).toEqual([['heliotrope-seeds']]);
  });

  it('gives the same tag a different index value for each user', async () => {
    const a = as();
    const b = as();
    const first = await a.create({ content: 'one', tags: ['Lavender'] });
    const second = await b.create({ content: 'two', tags: [' lavender'] });
    const again = await a.create({ content: 'three', tags: ['LAVENDER'] });
    const [ia, ib, ia2] = await Promise.all(
      [first, second, again].map(async (t) => (await rawRow(t.id)).tag_index),
    );
    expect(ia).toHaveLength(1);
    expect(ia).toEqual(ia2);
    expect(ib).toHaveLength(1);
    expect(ib).not.toEqual(ia);
  });
});

describe('tags stored before they were encrypted', () => {
  it('are encrypted and indexed when an instance starts, and read the same', async () => {
    const me = as();
    const cipher = stack.get('thoughts').deps.cipher;
    const content = cipher.encrypt('An old entry', `thoughts.content:${me.userId}`);
    const [legacy] = await query(sql`
      insert into thoughts.thoughts (user_id, content_enc, tags, local_date)
      values (${me.userId}, ${content}, array['Oldgrowth', 'mossbank']::text[], '2024-06-01')
      returning id`);
    const id = Number(legacy!.id);
    const [empty] = await query(sql`
      insert into thoughts.thoughts (user_id, content_enc, tags, local_date)
      values (${me.userId}, ${content}, '{}'::text[], '2024-06-02')
      returning id`);
    const emptyId = Number(empty!.id);
    // Read before any migration: the legacy value is still the thought's tags.
    expect((await me.all()).find((t) => t.id === id)?.tags).toEqual(['Oldgrowth', 'mossbank']);

    const restarted = await startAnotherInstance();
    try {
      await until(async () => leaked(await rawRow(id), ['oldgrowth']).length === 0, 10_000, 'migration');
      expect(leaked(await rawRow(id), ['oldgrowth', 'mossbank'])).toEqual([]);
      expect((await rawRow(id)).tag_index).toHaveLength(2);
      expect((await me.all()).find((t) => t.id === id)?.tags).toEqual(['Oldgrowth', 'mossbank']);
      expect((await me.all()).find((t) => t.id === emptyId)?.tags).toEqual([]);
      expect((await me.search('oldgrowth')).map((t) => t.id)).toEqual([id]);
    } finally {
      await restarted.close();
    }
  });

  it('are re-encrypted and re-indexed under a new data key after a rotation', async () => {
    const me = as();
    const created = await me.create({ content: 'before the rotation', tags: ['Bluebell'] });
    const before = await rawRow(created.id);
    const oldKey = stack.config.DATA_ENCRYPTION_KEY;
    const newKey = generateKey();
    const rotated = await startAnotherInstance({
      DATA_ENCRYPTION_KEY: newKey,
      DATA_ENCRYPTION_OLD_KEYS: oldKey,
    });
    try {
      const newKeyId = rotated.deps.cipher.currentKeyId;
      await until(
        async () => String((await rawRow(created.id)).tags_enc).startsWith(`enc1.${newKeyId}.`),
        10_000,
        'rotation',
      );
      const after = await rawRow(created.id);
      expect(after.tag_index).toHaveLength(1);
      expect(after.tag_index).not.toEqual(before.tag_index);
      const res = await fetch(`${rotated.url}/internal/thoughts/search?q=bluebell`, {
        headers: internalHeaders(stack.config, me.userId, 'thoughts', 'assistant'),
      });
      expect(((await res.json()) as Thought[]).map((t) => [t.id, t.tags])).toEqual([
        [created.id, ['Bluebell']],
      ]);
    } finally {
      await rotated.close();
    }
  });
});
