import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailDigest } from '@haven/contracts/mail';
import { startOpenAiDouble, type ChatRequest } from '../../../test/doubles/openai-server';
import { startIntegrations, type Harness } from './harness';

let h: Harness;
let model: Awaited<ReturnType<typeof startOpenAiDouble>>;
const asked: ChatRequest[] = [];

beforeAll(async () => {
  model = await startOpenAiDouble({
    reply: (request) => {
      asked.push(request);
      if (request.schemaName === 'needs_reply') {
        // The model reads the candidates and keeps those that expect an answer.
        const candidates = JSON.parse(request.user) as Array<{ id: string; subject: string }>;
        return { needsReply: candidates.filter((c) => !/thanks/i.test(c.subject)).map((c) => c.id) };
      }
      return { draft: 'Hi Bob,\n\nFriday at noon works for me.\n\nBest,' };
    },
  });
  h = await startIntegrations({ OPENAI_BASE_URL: model.url });
});
afterAll(async () => {
  await h?.stop();
  await model?.stop();
});

describe('with a model configured', () => {
  it('refines the reply candidates and drafts replies by the rules, with full content only when allowed', async () => {
    h.google.state.consentAs = 'kai@model.example';
    const account = h.google.account('kai@model.example');
    const question = account.addMessage({
      from: 'Bob Stone <bob@example.com>',
      subject: 'Lunch on Friday?',
      text: `Are you free for lunch on Friday at noon? ${'We could try the new place by the river. '.repeat(4)}The secret word is pumpernickel.`,
    });
    account.addMessage({
      from: 'Hana <hana@example.com>',
      subject: 'Thanks!',
      text: 'Thanks for yesterday.',
    });
    const me = h.as();
    const integration = await h.connected(me, 'email');

    const digest = (await me.get('/api/assist/emails')).body as EmailDigest;
    const bySubject = Object.fromEntries(digest.emails.map((e) => [e.subject, e]));
    expect(bySubject['Lunch on Friday?']!.needsReply).toBe(true);
    expect(bySubject['Thanks!']!.needsReply).toBe(false);
    expect(asked.some((r) => r.schemaName === 'needs_reply')).toBe(true);

    await me.patch(`/api/integrations/${integration.id}/settings`, {
      contextualRules: '- Always sign as Kai.',
      settings: { includeFullContent: false },
    });
    const drafted = await me.post('/api/assist/email-draft', {
      emailId: question.id,
      threadId: question.threadId,
    });
    expect(drafted.body).toEqual({
      draft: 'Hi Bob,\n\nFriday at noon works for me.\n\nBest,',
      source: 'model',
    });
    const snippetOnly = asked.filter((r) => r.schemaName === 'reply_draft').at(-1)!;
    expect(snippetOnly.system).toContain('- Always sign as Kai.');
    expect(snippetOnly.user).toContain('Are you free for lunch');
    expect(snippetOnly.user).not.toContain('pumpernickel');

    await me.patch(`/api/integrations/${integration.id}/settings`, {
      settings: { includeFullContent: true },
    });
    await me.post('/api/assist/email-draft', { emailId: question.id, threadId: question.threadId });
    expect(asked.filter((r) => r.schemaName === 'reply_draft').at(-1)!.user).toContain('pumpernickel');

    // A failing model still leaves the user a draft to edit: the template, said so.
    model.state.fail = true;
    const fallback = await me.post('/api/assist/email-draft', {
      emailId: question.id,
      threadId: question.threadId,
    });
    expect(fallback.body.source).toBe('template');
    expect(fallback.body.draft).toMatch(/^Hi Bob,/);
    model.state.fail = false;
  });
});
