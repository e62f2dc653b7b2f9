import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@haven/kit/logger';
import { startOpenAiDouble, toolCalls } from '../../../test/doubles/openai-server';
import { messages } from '../src/db/schema';
import { sealStoredMetadata } from '../src/domain/message-metadata';
import { startAssistantStack } from './harness';

/** Words of the proposals that must never be readable in the database. */
const DRAFT = {
  to: 'rosalind.quill@example.com',
  subject: 'Zephyr budget recap',
  body: 'Hi Rosalind, my journal says the marmalade merger worries me more than I admit.',
};
const EVENT = {
  title: 'Zephyr planning sync',
  start: { date: '2031-05-06', time: '10:00' },
  end: { date: '2031-05-06', time: '10:30' },
  location: 'Quillhouse room 42',
};
const SECRETS = [DRAFT.to, 'Zephyr budget recap', 'marmalade merger', 'Zephyr planning sync', 'Quillhouse'];

let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
let stack: Awaited<ReturnType<typeof startAssistantStack>>;

beforeAll(async () => {
  llm = await startOpenAiDouble({
    reply: (r) =>
      r.messages.some((m) => m.role === 'tool')
        ? 'Here are a draft and an event for you to review.'
        : toolCalls([
            { name: 'draft_email', arguments: DRAFT },
            { name: 'propose_event', arguments: EVENT },
          ]),
  });
  stack = await startAssistantStack({ OPENAI_BASE_URL: llm.url });
});
afterAll(async () => {
  await stack?.stop();
  await llm?.stop();
});

/** Every text and JSON value of every table of the assistant's schema, as one string. */
async function everythingStored(): Promise<string> {
  const db = stack.get('assistant').deps.db;
  const columns = (await db.execute(sql`
    select table_name, column_name from information_schema.columns
    where table_schema = 'assistant' and data_type in ('text', 'jsonb', 'json', 'character varying')`)) as unknown as {
    rows: Array<{ table_name: string; column_name: string }>;
  };
  let all = '';
  for (const { table_name, column_name } of columns.rows) {
    const values = (await db.execute(
      sql`select ${sql.identifier(column_name)}::text as v from assistant.${sql.identifier(table_name)}`,
    )) as unknown as { rows: Array<{ v: string | null }> };
    all += values.rows.map((r) => r.v ?? '').join('\n');
  }
  return all;
}

describe('draft and event proposals at rest', () => {
  it('are encrypted in the database, and read back whole by their owner', async () => {
    const me = stack.as(5101);
    const c = await me.conversation();
    const reply = await me.ask(c.id, 'Draft a recap to Rosalind and find a slot for the planning sync');
    expect(reply.metadata).toMatchObject({ drafts: [DRAFT], events: [EVENT] });
    const stored = await everythingStored();
    expect(stored.length).toBeGreaterThan(0);
    for (const secret of SECRETS) expect(stored, secret).not.toContain(secret);
  });

  it('seals metadata stored in plaintext before, which reads the same afterwards', async () => {
    const me = stack.as(5102);
    const c = await me.conversation();
    const reply = await me.ask(c.id, 'Another draft please');
    const db = stack.get('assistant').deps.db;
    // As a message was stored before metadata was encrypted: plaintext JSON, no sealed value.
    await db
      .update(messages)
      .set({ legacyMetadata: { engine: 'ai', drafts: [DRAFT] }, metadataEnc: null })
      .where(sql`${messages.id} = ${reply.id}`);
    expect(await everythingStored()).toContain(DRAFT.body);
    const legacy = ((await me.messages(c.id)).body as Array<{ id: number; metadata?: unknown }>).at(-1);
    expect(legacy?.metadata).toEqual({ engine: 'ai', drafts: [DRAFT] });

    const sealed = await sealStoredMetadata({
      db,
      cipher: stack.get('assistant').deps.cipher,
      log: createLogger({ name: 'test', level: 'silent' }),
    });
    expect(sealed).toBeGreaterThanOrEqual(1);
    const stored = await everythingStored();
    for (const secret of SECRETS) expect(stored, secret).not.toContain(secret);
    const after = ((await me.messages(c.id)).body as Array<{ id: number; metadata?: unknown }>).at(-1);
    expect(after?.metadata).toEqual({ engine: 'ai', drafts: [DRAFT] });
  });
});
