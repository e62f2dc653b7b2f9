import { assistantService } from '@haven/assistant/service';
import { users } from '@haven/auth/db/schema';
import { authService } from '@haven/auth/service';
import type { ExportProgress, ImportProgress } from '@haven/contracts/portability';
import { insightsService } from '@haven/insights/service';
import { integrationsService } from '@haven/integrations/service';
import { internalHeaders, startTestServices } from '@haven/kit/testing';
import { thoughtsService } from '@haven/thoughts/service';

const THOUGHTS = 10_000;
const CONVERSATIONS = 20;
const MESSAGES_EACH = 50;

/** Samples the process's resident memory while `work` runs: the peak above where it started. */
async function measured<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; peakMb: number; baseMb: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const value = await work();
    return {
      value,
      ms: performance.now() - started,
      peakMb: (peak - base) / 2 ** 20,
      baseMb: base / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}

export async function benchPortability(): Promise<void> {
  console.log(`\nData export and import: ${THOUGHTS} thoughts and ${CONVERSATIONS * MESSAGES_EACH} messages`);
  const stack = await startTestServices(
    [authService, thoughtsService, insightsService, assistantService, integrationsService],
    { LOG_LEVEL: 'warn', NODE_ENV: 'production' },
  );
  try {
    const db = stack.get('auth').deps.db;
    const newUser = async (name: string) =>
      (
        await db
          .insert(users)
          .values({ username: name, email: `${name}@example.com`, passwordHash: 'x' })
          .returning()
      )[0]!.id;
    const me = await newUser('bench-export');
    const internal = (service: 'thoughts' | 'assistant', path: string, body: unknown) =>
      fetch(stack.get(service).url + path, {
        method: 'POST',
        headers: {
          ...internalHeaders(stack.config, me, service, 'auth'),
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const day0 = Date.UTC(2024, 0, 1);
    for (let i = 0; i < THOUGHTS; i += 500) {
      const items = Array.from({ length: Math.min(500, THOUGHTS - i) }, (_, k) => {
        const n = i + k;
        const date = new Date(day0 + n * 93 * 60_000);
        return {
          content: `Thought ${n}: a few lines about the day, plans for tomorrow and something I noticed on the walk home.`,
          date: date.toISOString(),
          localDate: date.toISOString().slice(0, 10),
          category: ['personal', 'professional', 'creative'][n % 3],
          tags: n % 4 === 0 ? ['work', 'planning'] : ['garden'],
          isVoice: false,
        };
      });
      const res = await internal('thoughts', '/internal/import/thoughts', { items });
      if (!res.ok) throw new Error(`seeding thoughts failed: ${res.status}`);
    }
    const conversations = Array.from({ length: CONVERSATIONS }, (_, c) => ({
      title: `Conversation ${c}`,
      createdAt: new Date(day0 + c * 86_400_000).toISOString(),
      messages: Array.from({ length: MESSAGES_EACH }, (_, m) => ({
        type: m % 2 ? 'assistant' : 'user',
        content: `Message ${m} of conversation ${c}: a question about the plan and an answer with a few suggestions.`,
        createdAt: new Date(day0 + c * 86_400_000 + m * 60_000).toISOString(),
      })),
    }));
    await internal('assistant', '/internal/import/conversations', { items: conversations });

    const auth = (userId: number, path: string, init: RequestInit = {}) =>
      fetch(stack.get('auth').url + path, {
        ...init,
        headers: { ...stack.headers('auth', userId), ...(init.headers as Record<string, string>) },
      });
    const poll = async <T extends { status: string }>(userId: number, path: string, done: string[]) => {
      for (;;) {
        const state = (await (await auth(userId, path)).json()) as T;
        if (done.includes(state.status)) return state;
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    const exported = await measured(async () => {
      const { id } = (await (await auth(me, '/api/account/export', { method: 'POST' })).json()) as {
        id: string;
      };
      await poll<ExportProgress>(me, `/api/account/export/${id}`, ['ready', 'failed']);
      return Buffer.from(await (await auth(me, `/api/account/export/${id}/download`)).arrayBuffer());
    });
    console.log(
      `  export: ${(exported.ms / 1000).toFixed(1)} s, zip ${(exported.value.length / 2 ** 20).toFixed(1)} MB, ` +
        `process memory +${exported.peakMb.toFixed(0)} MB at peak (from ${exported.baseMb.toFixed(0)} MB; every service in this one process)`,
    );

    const other = await newUser('bench-import');
    const imported = await measured(async () => {
      const started = await auth(other, '/api/account/import', {
        method: 'POST',
        headers: { 'content-type': 'application/zip' },
        body: new Uint8Array(exported.value),
      });
      const { id } = (await started.json()) as { id: string };
      return poll<ImportProgress>(other, `/api/account/import/${id}`, ['done', 'failed']);
    });
    console.log(
      `  import of that zip: ${(imported.ms / 1000).toFixed(1)} s (${imported.value.imported} imported, ` +
        `${imported.value.errors.length} errors), process memory +${imported.peakMb.toFixed(0)} MB at peak`,
    );
  } finally {
    await stack.stop();
  }
}
