import type { CalendarAnswer } from '@haven/contracts/calendar';
import type { EmailDigest, WaitingAnswer } from '@haven/contracts/mail';
import { recipientNotice, type DraftProposal } from '@haven/contracts/proposals';
import { createLlm } from '@haven/kit/llm';
import { createLogger } from '@haven/kit/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiDouble, toolCalls, type ChatRequest } from '../../../test/doubles/openai-server';
import { localReply } from '../src/domain/local-reply';
import { writeReply, type ReplySources } from '../src/domain/reply';

/*
 * The reply's reading of the user's connected accounts. The accounts come from the integrations
 * service in production (its own tests cover the digest); here the reply is given them directly, and
 * the model, where there is one, is the local OpenAI double.
 */

const digest: EmailDigest = {
  connected: true,
  stats: { newSinceYesterday: 2, needingResponse: 1 },
  emails: [
    {
      id: 'm1',
      threadId: 't1',
      from: 'Priya Patel',
      fromFull: 'Priya Patel <priya@example.com>',
      subject: 'Contract review by Friday?',
      snippet: 'Could you look over the draft before Friday?',
      date: '2026-11-22T08:00:00.000Z',
      isNew: true,
      needsReply: true,
    },
    {
      id: 'm2',
      threadId: 't2',
      from: 'Weekly Digest',
      fromFull: 'Weekly Digest <no-reply@news.example.com>',
      subject: 'Your week in review',
      snippet: 'Top stories',
      date: '2026-11-22T07:00:00.000Z',
      isNew: true,
      needsReply: false,
    },
  ],
};
const waiting: WaitingAnswer = {
  connected: true,
  days: 3,
  threads: [
    {
      threadId: 't9',
      to: 'Ana Lima',
      subject: 'Budget figures',
      since: '2026-11-18T09:00:00.000Z',
      days: 4,
      nudge: {
        to: 'Ana Lima <ana@example.com>',
        subject: 'Re: Budget figures',
        body: 'Hi Ana, …',
        threadId: 't9',
      },
    },
  ],
};
const invitations: CalendarAnswer = {
  connected: true,
  events: [
    {
      id: 'e1',
      summary: 'Design sync',
      start: { dateTime: '2026-11-24T15:00:00.000Z' },
      organizer: { displayName: 'Lee' },
      responseStatus: 'needsAction',
    },
  ],
};

function sources(overrides: Partial<ReplySources> = {}): ReplySources {
  return {
    search: async () => [],
    range: async () => [],
    includeThoughtContent: async () => true,
    digest: async () => digest,
    waiting: async () => waiting,
    invitations: async () => invitations,
    connections: async () => ({ email: true, calendar: true, messages: false, documents: false }),
    slackMentions: async () => ({ connected: false, items: [] }),
    notionSearch: async () => ({ connected: false, pages: [] }),
    weeklyInsight: async () => ({ status: 'empty' }),
    knownContacts: async () => [],
    ...overrides,
  };
}
const ask = (question: string) => ({
  userId: 1,
  question,
  history: [{ role: 'user' as const, content: question }],
  timezoneOffset: 0,
});
const log = createLogger({ name: 'assistant', level: 'silent' });

describe('without a model', () => {
  it('lists the e-mails that seem to need a reply, and says AI is not configured', async () => {
    const reply = await localReply(sources(), ask('Which emails need an answer from me?'));
    expect(reply.content).toMatch(/^AI is not configured on this server/);
    expect(reply.content).toContain('1 of your e-mails seem to need a reply');
    expect(reply.content).toContain('**Priya Patel** — Contract review by Friday?');
    expect(reply.content).not.toContain('Weekly Digest');
    expect(reply.used).toEqual({ email: true, calendar: undefined });
  });

  it('lists invitations awaiting an answer', async () => {
    const reply = await localReply(sources(), ask('Any calendar invitations I have not answered?'));
    expect(reply.content).toContain('**Design sync** — 2026-11-24 15:00, from Lee');
    expect(reply.used.calendar).toBe(true);
  });

  it('says when an account is not connected, or cannot be read, and still replies', async () => {
    const none = await localReply(
      sources({ digest: async () => ({ connected: false, emails: [], stats: digest.stats }) }),
      ask('anything in my inbox?'),
    );
    expect(none.content).toContain(
      'No mail account is connected: connect Google mail on the Connect screen.',
    );
    const down = await localReply(
      sources({ invitations: () => Promise.reject(new Error('502')) }),
      ask('my calendar this week'),
    );
    expect(down.content).toContain('Your calendar could not be read just now.');
    // Neither touched a calendar: no 'Calendar integration used' badge.
    expect(down.used.calendar).toBeUndefined();
    const notConnected = await localReply(
      sources({ invitations: async () => ({ connected: false, events: [] }) }),
      ask('my calendar this week'),
    );
    expect(notConnected.used.calendar).toBeUndefined();
  });

  it('lists the questions the user is still waiting on, not the replies they owe', async () => {
    const reply = await localReply(sources(), ask("Who hasn't answered my emails?"));
    expect(reply.content).toContain('1 of your questions have waited 3 days or more for an answer');
    expect(reply.content).toContain('**Ana Lima** — Budget figures (4 days)');
    expect(reply.content).not.toContain('Priya');
    expect(reply.used.email).toBe(true);
    const none = await localReply(
      sources({ waiting: async () => ({ ...waiting, days: 1, threads: [] }) }),
      ask('Anyone I should follow up with?'),
    );
    expect(none.content).toContain('No question you sent has waited 1 day or more for an answer.');
  });

  it('leaves other questions to the thoughts', async () => {
    const reply = await localReply(sources(), ask('How did I sleep this week?'));
    expect(reply.content).not.toContain('Priya');
  });
});

describe('with a model', () => {
  let model: Awaited<ReturnType<typeof startOpenAiDouble>>;
  const seen: ChatRequest[] = [];
  beforeAll(async () => {
    model = await startOpenAiDouble({
      reply: (request) => {
        seen.push(request);
        const last = request.messages.at(-1)!;
        if (last.role === 'user') return toolCalls([{ name: 'email_digest', arguments: {} }]);
        return `Priya is waiting on you: ${String(last.content).includes('Contract review') ? 'contract review' : '?'}`;
      },
    });
  });
  afterAll(() => model?.stop());

  it('offers the account tools, runs email_digest and marks the conversation as using e-mail', async () => {
    const llm = createLlm({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: undefined, OPENAI_MODEL: 'test' });
    const reply = await writeReply({ llm, sources: sources(), log }, ask('Who is waiting for me?'));
    expect(seen[0]!.tools.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(['email_digest', 'calendar_invitations']),
    );
    expect(reply.content).toBe('Priya is waiting on you: contract review');
    expect(reply.used.email).toBe(true);
    expect(reply.metadata).toMatchObject({ engine: 'ai', tools: ['email_digest'] });
  });

  it('marks the calendar as used only when a connected calendar was read, not for a proposed event', async () => {
    const calendarModel = await startOpenAiDouble({
      reply: (request) => {
        const last = request.messages.at(-1)!;
        if (last.role !== 'user') return 'Noted.';
        return /invitations/.test(String(last.content))
          ? toolCalls([{ name: 'calendar_invitations', arguments: {} }])
          : toolCalls([
              {
                name: 'propose_event',
                arguments: {
                  title: 'Coffee with Tom',
                  start: { date: '2026-11-26', time: '15:00' },
                  end: { date: '2026-11-26', time: '16:00' },
                },
              },
            ]);
      },
    });
    try {
      const llm = createLlm({
        OPENAI_BASE_URL: calendarModel.url,
        OPENAI_API_KEY: undefined,
        OPENAI_MODEL: 'test',
      });
      const read = await writeReply({ llm, sources: sources(), log }, ask('Any invitations?'));
      expect(read.used.calendar).toBe(true);
      const disconnected = await writeReply(
        { llm, sources: sources({ invitations: async () => ({ connected: false, events: [] }) }), log },
        ask('Any invitations?'),
      );
      expect(disconnected.used.calendar).toBeUndefined();
      const proposed = await writeReply({ llm, sources: sources(), log }, ask('Coffee with Tom on Thursday'));
      expect(proposed.metadata).toMatchObject({ events: [{ title: 'Coffee with Tom' }] });
      expect(proposed.used.calendar).toBeUndefined();
    } finally {
      await calendarModel.stop();
    }
  });

  it('does not flag a draft to someone the user wrote to, asks only for the draft’s addresses, and flags when it cannot ask', async () => {
    const draftModel = await startOpenAiDouble({
      reply: (request) =>
        request.messages.at(-1)!.role === 'user'
          ? toolCalls([
              {
                name: 'draft_email',
                arguments: {
                  to: 'Priya Shah <priya@corp.example>',
                  subject: 'Contract',
                  body: 'Looking at it today.',
                },
              },
            ])
          : 'Here is a draft.',
    });
    try {
      const llm = createLlm({
        OPENAI_BASE_URL: draftModel.url,
        OPENAI_API_KEY: undefined,
        OPENAI_MODEL: 'test',
      });
      const asked: string[][] = [];
      const draftOf = async (knownContacts: ReplySources['knownContacts']) =>
        (
          (
            await writeReply(
              { llm, sources: sources({ knownContacts }), log },
              ask('Write a short note about the contract'),
            )
          ).metadata as { drafts: DraftProposal[] }
        ).drafts[0]!;
      const known = await draftOf(async (_userId, addresses) => {
        asked.push(addresses);
        return addresses;
      });
      expect(asked).toEqual([['priya@corp.example']]);
      expect(known.recipientFrom).toBe('contact');
      expect(recipientNotice(known.recipientFrom)).toBeNull();
      expect((await draftOf(async () => [])).recipientFrom).toBe('unknown');
      const unreadable = await draftOf(async () => {
        throw new Error('integrations is down');
      });
      expect(recipientNotice(unreadable.recipientFrom)).not.toBeNull();
    } finally {
      await draftModel.stop();
    }
  });

  it('runs list_waiting_for_answer: whom the user waits for, bounded, without the nudge texts', async () => {
    const results: string[] = [];
    const waitModel = await startOpenAiDouble({
      reply: (request) => {
        const last = request.messages.at(-1)!;
        if (last.role === 'user') return toolCalls([{ name: 'list_waiting_for_answer', arguments: {} }]);
        results.push(String(last.content));
        return 'Ana has not answered about the budget figures for 4 days.';
      },
    });
    try {
      const llm = createLlm({
        OPENAI_BASE_URL: waitModel.url,
        OPENAI_API_KEY: undefined,
        OPENAI_MODEL: 'test',
      });
      const many: WaitingAnswer = {
        ...waiting,
        threads: Array.from({ length: 30 }, (_, i) => ({ ...waiting.threads[0]!, threadId: `t${i}` })),
      };
      const reply = await writeReply(
        { llm, sources: sources({ waiting: async () => many }), log },
        ask('Who do I need to chase?'),
      );
      expect(reply.used.email).toBe(true);
      // In the envelope every reading tool's data travels in (untrusted, with its provenance).
      const result = JSON.parse(results[0]!) as {
        source: string;
        afterDays: number;
        untrusted_data: unknown[];
      };
      expect(result.source).toBe('gmail');
      expect(result.afterDays).toBe(3);
      expect(result.untrusted_data).toHaveLength(20);
      expect(result.untrusted_data[0]).toEqual({
        id: 't0',
        waitingFor: 'Ana Lima',
        subject: 'Budget figures',
        lastWrote: '2026-11-18T09:00:00.000Z',
        days: 4,
      });
    } finally {
      await waitModel.stop();
    }
  });

  it('offers slack_mentions and search_notion only when those accounts are connected, and runs them', async () => {
    const calls: Array<{ name: string; args: unknown }> = [];
    const toolsModel = await startOpenAiDouble({
      reply: (request) => {
        const names = request.tools.map((t) => t.function.name);
        calls.push({ name: 'offered', args: names });
        const last = request.messages.at(-1)!;
        if (last.role === 'user' && names.includes('search_notion'))
          return toolCalls([
            { name: 'slack_mentions', arguments: {} },
            { name: 'search_notion', arguments: { query: 'launch' } },
          ]);
        return `Done: ${request.messages
          .filter((m) => m.role === 'tool')
          .map((m) => m.content)
          .join(' | ')}`;
      },
    });
    try {
      const llm = createLlm({
        OPENAI_BASE_URL: toolsModel.url,
        OPENAI_API_KEY: undefined,
        OPENAI_MODEL: 'test',
      });
      await writeReply({ llm, sources: sources(), log }, ask('Anything on Slack?'));
      expect(calls[0]!.args).not.toContain('slack_mentions');
      expect(calls[0]!.args).not.toContain('search_notion');

      const asked: string[] = [];
      const reply = await writeReply(
        {
          llm,
          sources: sources({
            connections: async () => ({ email: true, calendar: true, messages: true, documents: true }),
            slackMentions: async () => ({
              connected: true,
              items: [
                {
                  id: 'C1:1',
                  kind: 'mention',
                  channel: '#launch',
                  from: 'ben',
                  text: 'demo at 3?',
                  at: '2026-11-22T10:00:00.000Z',
                  needsReply: true,
                },
              ],
            }),
            notionSearch: async (_userId, q) => {
              asked.push(q);
              return {
                connected: true,
                pages: [
                  {
                    id: 'p1',
                    title: 'Launch plan',
                    url: 'https://notion.example/p1',
                    lastEdited: '2026-11-21T10:00:00.000Z',
                    excerpt: 'Ship it.',
                  },
                ],
              };
            },
          }),
          log,
        },
        ask('What is waiting for me on Slack, and what did I write about the launch?'),
      );
      expect(asked).toEqual(['launch']);
      expect(reply.content).toContain('demo at 3?');
      expect(reply.content).toContain('Launch plan');
    } finally {
      await toolsModel.stop();
    }
  });
});
