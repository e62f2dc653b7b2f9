import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@haven/auth/db/schema';
import { hashPassword } from '@haven/auth/domain/secrets';
import { integrationsService } from '@haven/integrations/service';
import { startService, type RunningService } from '@haven/kit/service';
import { createLogger } from '@haven/kit/logger';
import { until } from '@haven/kit/testing';
import { startEveryService } from './support/stack';

const SCHEMAS = ['auth', 'thoughts', 'insights', 'assistant', 'integrations', 'portability'];

/** Account deletion across every service, with one of them down at the moment it is asked. */
describe('deleting an account', () => {
  let everything: Awaited<ReturnType<typeof startEveryService>>;
  let stack: Awaited<ReturnType<typeof startEveryService>>['stack'];
  let google: Awaited<ReturnType<typeof startEveryService>>['google'];
  let restarted: RunningService | undefined;

  beforeAll(async () => {
    everything = await startEveryService();
    ({ stack, google } = everything);
  });
  afterAll(async () => {
    await restarted?.close();
    await everything?.stop();
  });

  /** Rows of `userId` left in every table of every schema (by `user_id`, and in the outboxes). */
  async function leftovers(userId: number): Promise<string[]> {
    const db = stack.get('auth').deps.db;
    const found: string[] = [];
    const tables = (await db.execute(sql`
      select table_schema, table_name from information_schema.columns
      where column_name = 'user_id' and table_schema in (${sql.join(
        SCHEMAS.map((s) => sql`${s}`),
        sql`, `,
      )})`)) as unknown as {
      rows: Array<{ table_schema: string; table_name: string }>;
    };
    for (const { table_schema, table_name } of tables.rows) {
      const counted = (await db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table_schema)}.${sql.identifier(table_name)} where user_id = ${userId}`,
      )) as unknown as { rows: Array<{ n: number }> };
      if (counted.rows[0]!.n > 0) found.push(`${table_schema}.${table_name}: ${counted.rows[0]!.n}`);
    }
    for (const schema of SCHEMAS) {
      const counted = (await db.execute(
        sql`select count(*)::int as n from ${sql.identifier(schema)}.outbox where payload->>'userId' = ${String(userId)} and sent_at is null`,
      )) as unknown as { rows: Array<{ n: number }> };
      if (counted.rows[0]!.n > 0) found.push(`${schema}.outbox (unsent): ${counted.rows[0]!.n}`);
    }
    return found;
  }

  it('deletes everything of the user in every service, even one down at the time, and the account last', async () => {
    const authDb = stack.get('auth').deps.db;
    const [user] = await authDb
      .insert(users)
      .values({
        username: 'gone',
        email: 'gone@example.com',
        name: 'Gone',
        passwordHash: await hashPassword('secret-pass'),
        isEmailVerified: true,
      })
      .returning();
    const me = user!.id;
    const call = (service: Parameters<typeof stack.call>[0], method: string, path: string, body?: unknown) =>
      stack.call(service, me, method, path, body);

    // Data everywhere: thoughts, an insight, a conversation, a connected Google account.
    for (const content of ['Planted tomatoes with Sam.', 'Ship the review before Thursday.'])
      expect(
        (
          await call('thoughts', 'POST', '/api/thoughts', {
            content,
            clientDate: new Date().toISOString(),
            timezoneOffset: 0,
          })
        ).status,
      ).toBe(201);
    const conversation = (await call('assistant', 'POST', '/api/conversations', { title: 'Plans' })).body as {
      id: number;
    };
    await call('assistant', 'POST', `/api/conversations/${conversation.id}/messages`, {
      content: 'What did I plan?',
      type: 'user',
    });
    await until(
      async () =>
        (await call('insights', 'GET', `/api/insights/daily?date=${new Date().toISOString().slice(0, 10)}`))
          .status === 200,
      20_000,
      'the day insight',
    );
    const started = (await call('integrations', 'POST', '/api/integrations/google/auth', { type: 'email' }))
      .body as { authUrl: string };
    const back = new URL((await fetch(started.authUrl, { redirect: 'manual' })).headers.get('location')!);
    expect(
      (
        await call('integrations', 'POST', '/api/integrations/google/auth-complete', {
          type: 'email',
          code: back.searchParams.get('code'),
          state: back.searchParams.get('state'),
        })
      ).status,
    ).toBe(200);
    expect((await leftovers(me)).length).toBeGreaterThan(4);

    // The integrations service is down when the user asks.
    await stack.get('integrations').close();
    expect((await call('auth', 'DELETE', '/api/user', { password: 'wrong-pass' })).status).toBe(400);
    expect(await leftovers(me)).toEqual(expect.arrayContaining([expect.stringMatching(/^thoughts\./)]));
    const deleted = await call('auth', 'DELETE', '/api/user', { password: 'secret-pass' });
    expect(deleted).toEqual({
      status: 200,
      body: { success: true, message: 'Your account is being deleted' },
    });

    // The services that are up delete at once; the account waits for the one that is down.
    await until(
      async () => (await leftovers(me)).every((l) => /^(auth|integrations)\./.test(l)),
      15_000,
      'the running services to delete',
    );
    expect(
      (
        await authDb
          .select()
          .from(users)
          .where(sql`id = ${me}`)
      ).length,
    ).toBe(1);
    const login = await fetch(`${stack.get('auth').url}/api/login`, {
      method: 'POST',
      headers: { ...stack.headers('auth', null), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'gone@example.com', password: 'secret-pass' }),
    });
    expect(login.status).toBe(401);

    // It comes back and finishes: tokens revoked at Google first, then every row, the account last.
    restarted = await startService(integrationsService, {
      config: stack.config,
      database: stack.database,
      port: 0,
      log: createLogger({ name: 'integrations', level: 'silent' }),
      serviceUrls: stack.urls,
    });
    await until(async () => (await leftovers(me)).length === 0, 20_000, 'every row gone');
    expect(await leftovers(me)).toEqual([]);
    expect(google.state.revoked.length).toBe(1);

    // The address and the username can be used again.
    const again = await fetch(`${stack.get('auth').url}/api/request-verification`, {
      method: 'POST',
      headers: { ...stack.headers('auth', null), 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'gone',
        email: 'gone@example.com',
        password: 'another-pass',
        name: 'Back',
      }),
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { message: string }).message).not.toMatch(/taken|exists/i);
  });
});
