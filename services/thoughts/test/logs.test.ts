import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlindIndex } from '@haven/kit/blind-index';
import { createLogger } from '@haven/kit/logger';
import { internalHeaders, startTestService } from '@haven/kit/testing';
import { thoughtsService } from '../src/service';

let svc: Awaited<ReturnType<typeof startTestService>>;
const lines: string[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  svc = await startTestService(
    thoughtsService,
    { LOG_LEVEL: 'info' },
    { log: createLogger({ name: 'thoughts', destination }) },
  );
});
afterAll(async () => svc?.stop());

describe('a thought insert the database refuses', () => {
  it('is logged by its error code, table and constraint, never by what was sent', async () => {
    const userId = 4242;
    const tag = 'Secretgarden';
    const content = 'Told nobody about the letter';
    // A constraint of this test database only: creative thoughts are refused by Postgres itself.
    await svc.deps.db.execute(
      sql`alter table thoughts.thoughts add constraint test_no_creative check (category <> 'creative')`,
    );
    lines.length = 0;
    try {
      const res = await fetch(`${svc.url}/api/thoughts`, {
        method: 'POST',
        headers: { ...internalHeaders(svc.config, userId, 'thoughts'), 'content-type': 'application/json' },
        body: JSON.stringify({
          content,
          category: 'creative',
          tags: [tag],
          clientDate: '2025-01-05T12:00:00Z',
        }),
      });
      expect(res.status).toBe(500);
      expect(await res.text()).not.toMatch(/secretgarden|letter|insert/i);
    } finally {
      await svc.deps.db.execute(sql`alter table thoughts.thoughts drop constraint test_no_creative`);
    }

    const failure = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.err);
    expect(failure?.err).toMatchObject({
      type: 'DatabaseError',
      sqlState: '23514',
      table: 'thoughts',
      constraint: 'test_no_creative',
    });
    const log = lines.join('\n');
    const token = createBlindIndex(svc.config.DATA_ENCRYPTION_KEY, 'tag-index')(`${userId}:secretgarden`);
    for (const secret of [
      /secretgarden/i,
      /nobody about/i,
      /insert into/i,
      /params/i,
      /failing row/i,
      /enc1\./,
      token,
    ]) {
      expect(log).not.toMatch(secret);
    }
  });
});
