import type { Insight } from '@haven/contracts/insights';
import type { Thought } from '@haven/contracts/thoughts';
import { startTestServices } from '@haven/kit/testing';
import { authService } from '@haven/auth/service';
import { thoughtsService } from '@haven/thoughts/service';
import { insightsService } from '../src/service';

/** Auth (preferences), thoughts and insights, as the insights worker needs them. */
export async function startInsightsStack(overrides: Record<string, string | undefined> = {}) {
  const stack = await startTestServices([authService, thoughtsService, insightsService], overrides);

  const { call } = stack;

  /** One user's view of thoughts and insights. */
  function as(userId: number) {
    return {
      userId,
      async write(content: string, day: string, extra: Record<string, unknown> = {}): Promise<Thought> {
        const res = await call('thoughts', userId, 'POST', '/api/thoughts', {
          content,
          category: 'personal',
          isVoice: false,
          clientDate: `${day}T18:00:00.000Z`,
          timezoneOffset: 0,
          ...extra,
        });
        if (res.status !== 201)
          throw new Error(`thought not saved: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body as Thought;
      },
      edit: (id: number, changes: Record<string, unknown>) =>
        call('thoughts', userId, 'PATCH', `/api/thoughts/${id}`, changes),
      remove: (id: number) => call('thoughts', userId, 'DELETE', `/api/thoughts/${id}`),
      get: (date: string, range = 'day') =>
        call('insights', userId, 'GET', `/api/insights/daily?date=${date}&range=${range}`),
      forget: (date: string, range = 'day') =>
        call('insights', userId, 'DELETE', `/api/insights/delete?date=${date}&range=${range}`),
      preferences: (patch: Record<string, boolean>) =>
        call('auth', userId, 'PATCH', '/api/user-preferences', patch),
      /** Polls as the SPA does (every 50 ms here) until the answer is not 202; at most 20 s. */
      async insight(date: string, range = 'day'): Promise<{ status: number; body: Insight }> {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const res = await this.get(date, range);
          if (res.status !== 202) return res as { status: number; body: Insight };
          if (Date.now() > deadline) throw new Error(`insight of ${range} ${date} still pending`);
          await new Promise((r) => setTimeout(r, 50));
        }
      },
    };
  }

  return { ...stack, as };
}
