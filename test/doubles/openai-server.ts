import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the double received. */
export interface LlmCall {
  path: string;
  body: string;
}

/**
 * An OpenAI-compatible HTTP server on a free local port: `/v1/chat/completions` answers with what
 * `reply(request)` returns (a JSON value sent as the message content), `/v1/audio/transcriptions`
 * with `transcript`. `fail` makes every call answer 500. The product reaches it through
 * OPENAI_BASE_URL only.
 */
export async function startOpenAiDouble(
  options: {
    reply?: (request: { system: string; user: string; schemaName: string }) => unknown;
    transcript?: string;
  } = {},
) {
  const calls: LlmCall[] = [];
  const state = { fail: false };
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    });
  const server = createServer(async (req, res) => {
    const body = await read(req);
    calls.push({ path: req.url ?? '', body });
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (state.fail) return send(500, { error: { message: 'double told to fail' } });
    if (req.url === '/v1/chat/completions') {
      const request = JSON.parse(body) as {
        messages: Array<{ role: string; content: string }>;
        response_format?: { json_schema?: { name?: string } };
      };
      const content = options.reply?.({
        system: request.messages.find((m) => m.role === 'system')?.content ?? '',
        user: request.messages.find((m) => m.role === 'user')?.content ?? '',
        schemaName: request.response_format?.json_schema?.name ?? '',
      });
      return send(200, {
        id: 'chatcmpl-double',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'double',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: JSON.stringify(content) },
          },
        ],
      });
    }
    if (req.url === '/v1/audio/transcriptions') return send(200, { text: options.transcript ?? '' });
    send(404, { error: { message: `no route ${req.url}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    state,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
