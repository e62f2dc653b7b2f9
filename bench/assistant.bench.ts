import { assistantService } from '@haven/assistant/service';
import { authService } from '@haven/auth/service';
import { startTestGateway } from '@haven/gateway/testing';
import { sessionCookie, startTestServices } from '@haven/kit/testing';
import { thoughtsService } from '@haven/thoughts/service';
import { startOpenAiDouble } from '../test/doubles/openai-server';
import { load, printTable } from './lib';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function stackWith(overrides: Record<string, string>) {
  const stack = await startTestServices([authService, thoughtsService, assistantService], {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    ...overrides,
  });
  const gateway = await startTestGateway(
    stack.config,
    {
      auth: stack.get('auth').url,
      thoughts: stack.get('thoughts').url,
      assistant: stack.get('assistant').url,
    },
    stack.get('auth').url,
  );
  const headers = { cookie: await sessionCookie(stack.config, 1), 'content-type': 'application/json' };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(gateway.url + path, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    return res.json() as Promise<unknown>;
  };
  return {
    gateway,
    headers,
    api,
    async stop() {
      await gateway.close();
      await stack.stop();
    },
  };
}

/** From POST /api/assistant/query to the reply being readable, polling every 20 ms: our own overhead. */
async function queryToReply(label: string, overrides: Record<string, string>, rounds: number): Promise<void> {
  const s = await stackWith(overrides);
  try {
    await s.api('POST', '/api/thoughts', {
      content: 'The launch plan is slipping.',
      category: 'personal',
      isVoice: false,
      clientDate: new Date().toISOString(),
      timezoneOffset: 0,
    });
    const { id } = (await s.api('POST', '/api/conversations', { title: 'Bench' })) as { id: number };
    const times: number[] = [];
    for (let round = 0; round < rounds + 2; round++) {
      const question = `What about the launch? (${round})`;
      const started = performance.now();
      await s.api('POST', `/api/conversations/${id}/messages`, { content: question, type: 'user' });
      await s.api('POST', '/api/assistant/query', { query: question, conversationId: id });
      for (;;) {
        const latest = (await s.api('GET', `/api/conversations/${id}/messages?limit=1`)) as Array<{
          type: string;
        }>;
        if (latest[0]?.type === 'assistant') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      if (round >= 2) times.push(performance.now() - started);
    }
    console.log(
      `  ${label}: p50 ${percentile(times, 50).toFixed(0)} ms, p90 ${percentile(times, 90).toFixed(0)} ms (n=${times.length})`,
    );
  } finally {
    await s.stop();
  }
}

/** GET of a conversation's 500 messages, one connection (a phone opening a long conversation). */
async function longConversation(): Promise<void> {
  const s = await stackWith({});
  try {
    const { id } = (await s.api('POST', '/api/conversations', { title: 'Long' })) as { id: number };
    for (let i = 0; i < 500; i++) {
      await s.api('POST', `/api/conversations/${id}/messages`, {
        content: `Message ${i}: a few lines about the day, plans for tomorrow and a question or two.`,
        type: 'user',
      });
    }
    const url = `${s.gateway.url}/api/conversations/${id}/messages`;
    await load('warm-up', url, { headers: s.headers, connections: 1, seconds: 2 });
    printTable('GET the messages of a 500-message conversation (1 connection)', [
      await load('messages (500)', url, { headers: s.headers, connections: 1, seconds: 6 }),
    ]);
  } finally {
    await s.stop();
  }
}

export async function benchAssistant(): Promise<void> {
  console.log('\nAssistant: POST /api/assistant/query until the reply is readable (polling every 20 ms)');
  await queryToReply('no model (local answer)', {}, 20);
  const model = await startOpenAiDouble({ reply: () => 'An instant answer.' });
  try {
    await queryToReply('test model server answering instantly', { OPENAI_BASE_URL: model.url }, 20);
  } finally {
    await model.stop();
  }
  await longConversation();
}
