import { authService } from '@haven/auth/service';
import { startTestGateway } from '@haven/gateway/testing';
import { insightsService } from '@haven/insights/service';
import { localInsight } from '@haven/insights/domain/engine/local';
import { sessionCookie, startTestServices } from '@haven/kit/testing';
import { thoughtsService } from '@haven/thoughts/service';
import { startOpenAiDouble } from '../test/doubles/openai-server';

const SAMPLES = [
  'Long day at work. The launch plan is slipping and I feel anxious about the budget review with Anna.',
  'Went for a run by the river before breakfast. Felt calm and clear afterwards.',
  'I need to email Sarah the summary of the launch plan tomorrow.',
  'Meet Tom on Tuesday at 3pm to talk about the garden design.',
  'Idea: a short story about a lighthouse keeper who collects letters. Could be the start of something.',
  'Quiet Sunday. Called mum, she sounded happy. I should book the dentist appointment for next Friday morning.',
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const fmt = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(0)} ms, p90 ${percentile(values, 90).toFixed(0)} ms (n=${values.length})`;

/**
 * From a GET of a stale day with 50 thoughts to the insight being served, polling every 50 ms as a
 * fast client would: the pipeline's own overhead (outbox, queue, worker, internal reads, storage).
 */
async function staleToServed(
  label: string,
  overrides: Record<string, string>,
  rounds: number,
): Promise<void> {
  const stack = await startTestServices([authService, thoughtsService, insightsService], {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...overrides,
  });
  const gateway = await startTestGateway(
    stack.config,
    { auth: stack.get('auth').url, thoughts: stack.get('thoughts').url, insights: stack.get('insights').url },
    stack.get('auth').url,
  );
  try {
    const headers = { cookie: await sessionCookie(stack.config, 1), 'content-type': 'application/json' };
    const day = '2025-03-05';
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${gateway.url}/api/thoughts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          content: SAMPLES[i % SAMPLES.length],
          category: 'personal',
          isVoice: false,
          clientDate: `${day}T${String(8 + (i % 12)).padStart(2, '0')}:00:00.000Z`,
          timezoneOffset: 0,
        }),
      });
      ids.push(((await res.json()) as { id: number }).id);
    }
    const times: number[] = [];
    for (let round = 0; round < rounds + 2; round++) {
      // Make the day stale, and let the change reach the insights service.
      await fetch(`${gateway.url}/api/thoughts/${ids[round % ids.length]}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ content: `${SAMPLES[round % SAMPLES.length]} (edit ${round})` }),
      });
      await new Promise((r) => setTimeout(r, 100));
      const started = performance.now();
      for (;;) {
        const res = await fetch(`${gateway.url}/api/insights/daily?date=${day}&range=day`, { headers });
        await res.arrayBuffer();
        if (res.status === 200) break;
        if (res.status !== 202) throw new Error(`insight answered ${res.status}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      if (round >= 2) times.push(performance.now() - started); // the first two warm up
    }
    console.log(`  ${label}: ${fmt(times)}`);
  } finally {
    await gateway.close();
    await stack.stop();
  }
}

/** The local engine alone on a 31-day month of 300 thoughts (warm). */
function localEngineMonth(rounds: number): void {
  const thoughts = Array.from({ length: 300 }, (_, i) => {
    const day = `2025-03-${String(1 + (i % 31)).padStart(2, '0')}`;
    return {
      id: i + 1,
      content: `${SAMPLES[i % SAMPLES.length]} Note ${i}.`,
      date: `${day}T18:00:00.000Z`,
      localDate: day,
      tags: [['work', 'launch', 'health', 'family'][i % 4]!],
      category: (['personal', 'professional', 'creative'] as const)[i % 3]!,
    };
  });
  const times: number[] = [];
  for (let round = 0; round < rounds + 3; round++) {
    const started = performance.now();
    localInsight({ range: 'month', start: '2025-03-01', end: '2025-03-31', thoughts });
    if (round >= 3) times.push(performance.now() - started);
  }
  console.log(`  local engine, month of 300 thoughts: ${fmt(times)}`);
}

export async function benchInsights(): Promise<void> {
  console.log(
    '\nInsights: a GET of a stale day of 50 thoughts until the insight is served (polling every 50 ms)',
  );
  await staleToServed('local engine', {}, 20);
  const model = await startOpenAiDouble({
    reply: () => ({
      summary: 'A day of plans.',
      summaryReferences: ['#1'],
      themes: [{ title: 'Work: launch', description: 'The launch.', references: ['#1', '#3'] }],
      suggestions: [],
    }),
  });
  try {
    await staleToServed('test model server answering instantly', { OPENAI_BASE_URL: model.url }, 20);
  } finally {
    await model.stop();
  }
  localEngineMonth(20);
}
