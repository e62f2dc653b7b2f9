/**
 * The journal an upgrade fixture holds, written and read through the public API: what a release's
 * fixture is made of (make-fixture.ts), and what every later release must still answer for it
 * (test/upgrade.test.ts).
 */
import { toneWav } from '../support/audio';

export interface Person {
  username: string;
  email: string;
  password: string;
}

export const PEOPLE: Person[] = [
  { username: 'ada_upgrade', email: 'ada@upgrade.test', password: 'kept-across-versions' },
  { username: 'bo_upgrade', email: 'bo@upgrade.test', password: 'also-kept-across-versions' },
];

/** The day most of the fixture's thoughts are on (its insight is that day's). */
export const DAY = '2026-11-20';

type Api = (method: string, path: string, body?: unknown) => Promise<unknown>;

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Every kind of data one person can make without a provider: thoughts (voice, tags, categories,
 *  an early year), a conversation with the assistant's reply, settings, a day's insight, an export. */
export async function writeJournal(api: Api, who: Person, index: number): Promise<void> {
  const at = (hour: number) => `${DAY}T${String(hour).padStart(2, '0')}:15:00.000Z`;
  await api('POST', '/api/thoughts', {
    content: `Morning swim before work, the water was cold. #sea #habits (${who.username})`,
    tags: ['swim'],
    clientDate: at(7),
    timezoneOffset: 0,
  });
  await api('POST', '/api/thoughts', {
    content: 'Said on the walk home: call Anna about Lisbon on Friday.',
    isVoice: true,
    audioData: `data:audio/wav;base64,${toneWav().toString('base64')}`,
    clientDate: at(18),
    timezoneOffset: -60,
  });
  await api('POST', '/api/thoughts', {
    content: 'Quarterly plan: finish the garden design, then the budget review with Sam.',
    category: 'professional',
    clientDate: at(10),
    timezoneOffset: 0,
  });
  await api('POST', '/api/thoughts', {
    content: 'A sketch idea: the harbour at night, in blue and grey.',
    category: 'creative',
    clientDate: at(21),
    timezoneOffset: 0,
  });
  await api('POST', '/api/thoughts', {
    content: 'An entry from long ago.',
    clientDate: '0099-06-01T12:00:00.000Z',
    timezoneOffset: 0,
  });
  await until('the day insight', async () => {
    const insight = await api('GET', `/api/insights/daily?date=${DAY}&range=day`);
    return insight && typeof insight === 'object' && 'summary' in insight ? insight : undefined;
  });
  if (index > 0) return;
  const conversation = (await api('POST', '/api/conversations', { title: 'Plans for the year' })) as {
    id: number;
  };
  const question = 'What did I write about Lisbon?';
  await api('POST', `/api/conversations/${conversation.id}/messages`, {
    content: question,
    type: 'user',
    timezoneOffset: 0,
  });
  await api('POST', '/api/assistant/query', {
    query: question,
    conversationId: conversation.id,
    timezoneOffset: 0,
  });
  await until('the assistant reply', async () => {
    const messages = (await api('GET', `/api/conversations/${conversation.id}/messages`)) as unknown[];
    return messages.length >= 2 ? messages : undefined;
  });
  await api('PATCH', '/api/user-preferences', { askBeforeEmails: false, weeklyReviewDay: 3 });
  const exported = (await api('POST', '/api/account/export', {})) as { id: string };
  await until('the export', async () => {
    const progress = (await api('GET', `/api/account/export/${exported.id}`)) as { status: string };
    return progress.status === 'ready' ? progress : undefined;
  });
}

/** What the API answers for a person: it must read the same after any later release's migrations. */
export async function readJournal(api: Api): Promise<Record<string, unknown>> {
  const thoughts = (await api('GET', '/api/thoughts/all')) as Array<{ id: number; hasAudio: boolean }>;
  const conversations = (await api('GET', '/api/conversations')) as Array<{ id: number }>;
  const voice = thoughts.find((t) => t.hasAudio);
  return {
    user: await api('GET', '/api/user'),
    thoughts,
    audio: voice ? await api('GET', `/api/thoughts/${voice.id}/audio`) : null,
    conversations,
    messages: await Promise.all(conversations.map((c) => api('GET', `/api/conversations/${c.id}/messages`))),
    preferences: await api('GET', '/api/user-preferences'),
    insight: await api('GET', `/api/insights/daily?date=${DAY}&range=day`),
  };
}
