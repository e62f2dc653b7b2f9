import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { users } from '@haven/auth/db/schema';
import { hashPassword } from '@haven/auth/domain/secrets';
import type { ImportProgress } from '@haven/contracts/portability';
import { until } from '@haven/kit/testing';
import type { startEveryService } from '../../../../test/support/stack';

type Stack = Awaited<ReturnType<typeof startEveryService>>['stack'];

/** A user of the stack, made straight in auth's table. */
export async function newUser(stack: Stack, name: string): Promise<number> {
  const [row] = await stack
    .get('auth')
    .deps.db.insert(users)
    .values({ username: name, email: `${name}@example.com`, passwordHash: await hashPassword('x-pass-x') })
    .returning();
  return row!.id;
}

/** A number a query answers as `n`. */
export async function countOf(stack: Stack, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await stack.get('portability').deps.db.execute(query)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return result.rows[0]!.n;
}

/** Uploads a zip as `userId` and waits for the import to end; its last progress. */
export async function importOf(
  stack: Stack,
  userId: number,
  zip: Buffer,
  timeoutMs = 30_000,
): Promise<ImportProgress> {
  const started = await fetch(`${stack.get('portability').url}/api/account/import`, {
    method: 'POST',
    headers: { ...stack.headers('portability', userId), 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  });
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: string };
  let progress: ImportProgress | undefined;
  await until(
    async () => {
      const res = await fetch(`${stack.get('portability').url}/api/account/import/${id}`, {
        headers: stack.headers('portability', userId),
      });
      progress = (await res.json()) as ImportProgress;
      return progress.status === 'done' || progress.status === 'failed';
    },
    timeoutMs,
    'import ended',
  );
  return progress!;
}

/** The user's thoughts and stored uploads: both none when an import kept nothing. */
export async function keptBy(stack: Stack, userId: number): Promise<{ thoughts: number; blobs: number }> {
  return {
    thoughts: await countOf(
      stack,
      sql`select count(*)::int as n from thoughts.thoughts where user_id = ${userId}`,
    ),
    blobs: await countOf(
      stack,
      sql`select count(*)::int as n from portability.blobs where user_id = ${userId}`,
    ),
  };
}
