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

/** The part of the Google double (test/doubles/google-server.ts) a journal's connections need. */
export interface GoogleAccounts {
  state: { consentAs: string };
  account(email: string): {
    addMessage(spec: {
      from: string;
      subject: string;
      text: string;
      date: Date;
      headers?: Record<string, string>;
    }): {
      id: string;
    };
    addInvitation(spec: { summary: string; start: Date; organizer?: string; location?: string }): unknown;
  };
}

/**
 * Gmail and Google Calendar connected (through the consent, as the SPA does it), their first sync
 * cached, a reply drafted; then autoSync is turned off, so a later start reads what is stored and
 * asks Google nothing (the double is gone by then).
 */
export async function connectGoogle(api: Api, google: GoogleAccounts, base: string): Promise<void> {
  const mailbox = google.account(google.state.consentAs);
  mailbox.addMessage({
    from: 'Ann Lee <ann@example.com>',
    subject: 'Budget sign-off',
    text: 'Can you sign off the budget by Thursday? The numbers are in the sheet.',
    date: new Date(`${DAY}T09:30:00.000Z`),
  });
  mailbox.addMessage({
    from: 'Weekly Digest <digest@news.example>',
    subject: 'This week in gardening',
    text: 'Ten tips for the autumn garden.',
    headers: { 'List-Unsubscribe': '<mailto:u@news.example>' },
    date: new Date(`${DAY}T06:00:00.000Z`),
  });
  mailbox.addInvitation({
    summary: 'Garden design review',
    start: new Date(Date.now() + 3 * 86_400_000),
    organizer: 'sam@example.com',
  });
  const connected: Array<{ id: number }> = [];
  for (const type of ['email', 'calendar'] as const) {
    const { authUrl } = (await api('POST', '/api/integrations/google/auth', { type })) as { authUrl: string };
    const consent = await fetch(authUrl, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!, base);
    const { searchParams: q } = callback;
    connected.push(
      (await api('POST', '/api/integrations/google/auth-complete', {
        code: q.get('code'),
        state: q.get('state'),
        type,
      })) as { id: number },
    );
  }
  const digest = await until('the first mail sync', async () => {
    const answer = (await api('GET', '/api/assist/emails?timezoneOffset=0')) as {
      emails: Array<{ id: string; threadId: string; subject: string }>;
    };
    return answer.emails.length === 2 ? answer : undefined;
  });
  await until('the first calendar sync', async () => {
    const answer = (await api('GET', '/api/assist/calendar')) as { events: unknown[] };
    return answer.events.length === 1 ? answer : undefined;
  });
  // A reply drafted (the template, with no model) and saved to Gmail's drafts, as Assist does.
  const ann = digest.emails.find((e) => e.subject === 'Budget sign-off')!;
  const { draft } = (await api('POST', '/api/assist/email-draft', {
    emailId: ann.id,
    threadId: ann.threadId,
  })) as {
    draft: string;
  };
  await api('POST', '/api/email/send?draft=true', {
    to: 'ann@example.com',
    subject: 'Re: Budget sign-off',
    body: draft,
    threadId: ann.threadId,
  });
  for (const { id } of connected)
    await api('PATCH', `/api/integrations/${id}/settings`, { settings: { autoSync: false } });
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
    ...(await readConnections(api)),
  };
}

/** The connected accounts and the mail they cached (what is stored, not what time makes of it). */
async function readConnections(api: Api): Promise<Record<string, unknown>> {
  const digest = (await api('GET', '/api/assist/emails?timezoneOffset=0')) as {
    connected: boolean;
    emails: Array<{ id: string }>;
    stats: { needingResponse: number };
  };
  const calendar = (await api('GET', '/api/assist/calendar')) as { connected: boolean };
  return {
    integrations: await api('GET', '/api/integrations'),
    mail: {
      connected: digest.connected,
      needingResponse: digest.stats.needingResponse,
      emails: await Promise.all(
        digest.emails.map((e) => api('GET', `/api/assist/emails/${e.id}?timezoneOffset=0`)),
      ),
    },
    calendarConnected: calendar.connected,
  };
}
