import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailDigest } from '@haven/contracts/mail';
import { startOpenAiDouble, type ChatRequest } from '../../../test/doubles/openai-server';
import { startIntegrations, type Harness } from './harness';

let h: Harness;
let model: Awaited<ReturnType<typeof startOpenAiDouble>>;
const asked: ChatRequest[] = [];
/** An id the model names though it was not among the candidates it was shown. */
let stranger = '';

beforeAll(async () => {
  model = await startOpenAiDouble({
    reply: (request) => {
      asked.push(request);
      if (request.schemaName === 'needs_reply') {
        // The model reads the candidates and keeps those that expect an answer; it also names a
        // message it was not shown, which must count for nothing.
        const candidates = JSON.parse(request.user) as Array<{ id: string; subject: string }>;
        return {
          needsReply: [...candidates.filter((c) => !/believe/i.test(c.subject)).map((c) => c.id), stranger],
        };
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
    account.addMessage({
      from: 'Ivo <ivo@example.com>',
      subject: 'Can you believe it',
      text: 'Can you believe how fast this year went by?',
    });
    stranger = account.addMessage({
      from: 'Survey <survey@letters.example>',
      subject: 'Your opinion',
      text: 'Could you fill in our survey?',
      headers: { 'List-Unsubscribe': '<mailto:u@letters.example>' },
    }).id;
    const me = h.as();
    const integration = await h.connected(me, 'email');

    const digest = (await me.get('/api/assist/emails')).body as EmailDigest;
    const bySubject = Object.fromEntries(digest.emails.map((e) => [e.subject, e]));
    expect(bySubject['Lunch on Friday?']!.needsReply).toBe(true);
    // The rules find nothing asked in a thank-you: the model is not even asked about it.
    expect(bySubject['Thanks!']!.needsReply).toBe(false);
    // The rules' candidate the model finds expects nothing is dropped...
    expect(bySubject['Can you believe it']!.needsReply).toBe(false);
    // ...and what the model names beyond the candidates stays as the rules found it.
    expect(bySubject['Your opinion']!.needsReply).toBe(false);
    const triage = asked.filter((r) => r.schemaName === 'needs_reply').at(-1)!;
    const shown = JSON.parse(triage.user) as Array<{ subject: string; signals: string[]; text: string }>;
    expect(shown.map((c) => c.subject).sort()).toEqual(['Can you believe it', 'Lunch on Friday?']);
    expect(shown.find((c) => c.subject === 'Lunch on Friday?')).toMatchObject({
      signals: expect.arrayContaining(['question']),
      text: expect.stringMatching(/^Are you free for lunch on Friday at noon\?/),
    });
    expect(triage.system).toContain('signals');

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
