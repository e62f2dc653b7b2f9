import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLlm } from '../src/llm';

/**
 * How structured answers are asked for, against a small OpenAI-compatible server whose next answers
 * the test sets: the mode comes from configuration or from an error naming the response format, per
 * request, and one unrelated 400 never changes how later requests ask.
 */
type Answer = { status: number; error?: string };
let server: Server;
let url: string;
let queue: Answer[] = [];
let formats: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const request = JSON.parse(body) as { response_format?: { type?: string } };
      formats.push(request.response_format?.type ?? 'none');
      const next = queue.shift() ?? { status: 200 };
      res.writeHead(next.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          next.status === 200
            ? {
                id: 'c',
                object: 'chat.completion',
                created: 0,
                model: 'm',
                choices: [
                  { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"ok":true}' } },
                ],
              }
            : { error: { message: next.error, type: 'invalid_request_error' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  queue = [];
  formats = [];
});

const ask = (mode?: 'json_schema' | 'json_object') => {
  const llm = createLlm({
    OPENAI_BASE_URL: url,
    OPENAI_API_KEY: undefined,
    OPENAI_MODEL: 'm',
    OPENAI_JSON_MODE: mode,
  })!;
  return (times = 1) =>
    Promise.all(
      Array.from({ length: times }, () =>
        llm.json({ name: 'answer', system: 's', user: 'u', schema: z.object({ ok: z.boolean() }) }),
      ),
    );
};

describe('structured answers from an OpenAI-compatible server', () => {
  it('asks again as a JSON object when the server refuses json_schema, for that request only', async () => {
    const json = ask();
    queue = [{ status: 400, error: "response_format 'json_schema' is not supported by this model" }];
    expect(await json()).toEqual([{ ok: true }]);
    await json();
    expect(formats).toEqual(['json_schema', 'json_object', 'json_schema']);
  });

  it('fails a request on an unrelated 400 and keeps asking later ones with json_schema', async () => {
    const json = ask();
    queue = [{ status: 400, error: "This model's maximum context length is 8192 tokens." }];
    // The SDK does not retry a 400: the request fails as it is.
    await expect(json()).rejects.toMatchObject({ status: 400 });
    expect(await json()).toEqual([{ ok: true }]);
    expect(formats).toEqual(['json_schema', 'json_schema']);
  });

  it('asks for a JSON object from the start when configured so', async () => {
    await ask('json_object')(2);
    expect(formats).toEqual(['json_object', 'json_object']);
  });
});
