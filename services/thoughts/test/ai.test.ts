import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Thought } from '@haven/contracts/thoughts';
import { internalHeaders, startTestService } from '@haven/kit/testing';
import { startOpenAiDouble } from '../../../test/doubles/openai-server';
import { thoughtsService } from '../src/service';

describe('thoughts with an OpenAI-compatible server', () => {
  let llm: Awaited<ReturnType<typeof startOpenAiDouble>>;
  let svc: Awaited<ReturnType<typeof startTestService>>;
  const headers = () => ({
    ...internalHeaders(svc.config, 7, 'thoughts'),
    'content-type': 'application/json',
  });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(svc.url + path, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    llm = await startOpenAiDouble({
      // A model that takes requests and notes to self alike for chats.
      reply: ({ user }) => ({ type: /weather|schedule/i.test(user) ? 'chat' : 'thought' }),
      transcript: 'I recorded this while walking',
    });
    svc = await startTestService(thoughtsService, { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: llm.url });
  });
  afterAll(async () => {
    await svc?.stop();
    await llm?.stop();
  });

  it('classifies with the model, and falls back to the keyword rule when it fails', async () => {
    expect((await post('/api/analyze-content', { text: 'what will the weather be like' })).body).toEqual({
      type: 'chat',
    });
    expect((await post('/api/analyze-content', { text: 'can you believe this day' })).body).toEqual({
      type: 'thought',
    });
    const call = llm.calls.find((c) => c.path === '/v1/chat/completions');
    expect(JSON.parse(call!.body)).toMatchObject({ response_format: { type: 'json_schema' } });
    llm.state.fail = true;
    try {
      expect((await post('/api/analyze-content', { text: 'can you believe this day' })).body).toEqual({
        type: 'chat',
      });
    } finally {
      llm.state.fail = false;
    }
  });

  it('keeps a note to self a thought whatever the model says, without asking it', async () => {
    const asked = llm.calls.length;
    const note = 'Schedule a meeting with Tom on Thursday at 3pm';
    expect((await post('/api/analyze-content', { text: note })).body).toEqual({ type: 'thought' });
    expect(llm.calls.length).toBe(asked);
    expect((await post('/api/analyze-content', { text: 'Schedule it, what do you think?' })).body).toEqual({
      type: 'chat',
    });
  });

  it('transcribes a voice thought sent as audio only, through the queue', async () => {
    const audio = Buffer.from('fake webm bytes').toString('base64');
    const created = await post('/api/thoughts', {
      content: '',
      isVoice: true,
      audioData: `data:audio/webm;base64,${audio}`,
      clientDate: '2025-03-01T10:00:00.000Z',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ content: '', hasAudio: true, isVoice: true });
    let latest: Thought | undefined;
    for (let i = 0; i < 100 && !latest?.content; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(`${svc.url}/api/thoughts?date=2025-03-01`, { headers: headers() });
      latest = ((await res.json()) as Thought[])[0];
    }
    expect(latest?.content).toBe('I recorded this while walking');
    expect(
      llm.calls.some((c) => c.path === '/v1/audio/transcriptions' && c.body.includes('fake webm bytes')),
    ).toBe(true);
  });

  it('still refuses an empty thought without audio', async () => {
    expect((await post('/api/thoughts', { content: '', isVoice: true })).status).toBe(400);
  });
});
