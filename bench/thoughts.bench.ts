import { startTestGateway } from '@haven/gateway/testing';
import { sessionCookie, startTestService } from '@haven/kit/testing';
import { thoughtsService } from '@haven/thoughts/service';
import { thoughts } from '@haven/thoughts/db/schema';
import { contentContext } from '@haven/thoughts/domain/present';
import { createTagSealer } from '@haven/thoughts/domain/tags';
import { load, printTable } from './lib';

const USER = 1;
const COUNT = 10_000;
const DAYS = 3 * 365;
const TAGS = [
  'work',
  'family',
  'health',
  'ideas',
  'sleep',
  'reading',
  'gratitude',
  'travel',
  'money',
  'music',
];

/** One user with 10,000 thoughts over three years: day, month, all and create through the gateway. */
export async function benchThoughts(): Promise<void> {
  const svc = await startTestService(thoughtsService, { LOG_LEVEL: 'warn', NODE_ENV: 'production' });
  const gateway = await startTestGateway(svc.config, { thoughts: svc.url }, svc.url);
  try {
    const tagSealer = createTagSealer(svc.deps.cipher, svc.config.DATA_ENCRYPTION_KEY);
    const end = Date.UTC(2025, 11, 31);
    const rows = Array.from({ length: COUNT }, (_, i) => {
      const date = new Date(end - Math.floor((i / COUNT) * DAYS * 86_400_000) - (i % 7) * 3_600_000);
      const text = `Thought ${i}: a few honest sentences about the day, what went well and what to try tomorrow.`;
      return {
        userId: USER,
        contentEnc: svc.deps.cipher.encrypt(text, contentContext(USER)),
        category: (['personal', 'professional', 'creative'] as const)[i % 3],
        ...tagSealer.seal(USER, [TAGS[i % TAGS.length]!, TAGS[(i * 7) % TAGS.length]!]),
        date,
        localDate: date.toISOString().slice(0, 10),
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await svc.deps.db.insert(thoughts).values(rows.slice(i, i + 500));

    const headers = { cookie: await sessionCookie(svc.config, USER) };
    // One user's screen asks one thing at a time.
    const opts = { headers, connections: 1, seconds: 6 };
    await load('warm-up', `${gateway.url}/api/thoughts/range?start=2025-06-01&end=2025-06-30`, {
      ...opts,
      seconds: 2,
    });
    const results = [
      await load('GET by day', `${gateway.url}/api/thoughts?date=2025-06-15`, opts),
      await load(
        'GET range (a month)',
        `${gateway.url}/api/thoughts/range?start=2025-06-01&end=2025-06-30`,
        opts,
      ),
      await load('GET all (10,000)', `${gateway.url}/api/thoughts/all`, opts),
      await load('POST create', `${gateway.url}/api/thoughts`, {
        ...opts,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          content: 'A new thought from the benchmark',
          clientDate: '2025-06-15T12:00:00.000Z',
          timezoneOffset: 0,
        }),
      }),
    ];
    printTable(
      `Thoughts, one user with ${COUNT.toLocaleString('en')} thoughts over three years (1 connection, 6 s each)`,
      results,
    );
    console.log('  targets: day and month p99 < 25 ms, all p99 < 250 ms, create p99 < 30 ms');
  } finally {
    await gateway.close();
    await svc.stop();
  }
}
