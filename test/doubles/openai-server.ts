import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the double received. */
export interface LlmCall {
  path: string;
  body: string;
}

/** A chat message as the double sees it. */
export interface ChatMessage {
  role: string;
  content?: string | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** What a scripted reply is given: the request, read. */
export interface ChatRequest {
  system: string;
  /** The last user message. */
  user: string;
  messages: ChatMessage[];
  schemaName: string;
  /** How the client asked for structure: `json_schema`, `json_object`, or none. */
  format: 'json_schema' | 'json_object' | undefined;
  tools: Array<{ type: string; function: { name: string } }>;
}

const RAW = Symbol('raw');
const TOOLS = Symbol('tools');
/** A reply sent as this exact text (e.g. not JSON), instead of a JSON value. */
export const rawContent = (text: string) => ({ [RAW]: text });
/** A reply that asks the client to call tools. */
export const toolCalls = (calls: Array<{ name: string; arguments: unknown }>) => ({ [TOOLS]: calls });

/**
 * An OpenAI-compatible HTTP server on a free local port. `/v1/chat/completions` answers with what
 * `reply(request)` returns: a string sent as the message's text, any other value sent as JSON text,
 * `rawContent(text)`, or `toolCalls([...])`. `refuseJsonSchema` answers 400 to `response_format: json_schema` as servers
 * without structured outputs do; `state.fail` makes every call answer 500. `/v1/audio/transcriptions`
 * answers `transcript`. The product reaches it through OPENAI_BASE_URL only.
 */
export async function startOpenAiDouble(
  options: {
    reply?: (request: ChatRequest) => unknown;
    transcript?: string;
    refuseJsonSchema?: boolean;
    /** When it returns a promise, the answer waits for it (a slow or stuck model). */
    delay?: () => Promise<void> | undefined;
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
      const request = JSON.parse(Buffer.from(body, 'latin1').toString('utf8')) as {
        messages: ChatMessage[];
        response_format?: { type?: string; json_schema?: { name?: string } };
        tools?: ChatRequest['tools'];
      };
      const format = request.response_format?.type as ChatRequest['format'];
      if (format === 'json_schema' && options.refuseJsonSchema) {
        return send(400, {
          error: { message: "response_format 'json_schema' is not supported by this model" },
        });
      }
      await options.delay?.();
      const users = request.messages.filter((m) => m.role === 'user');
      const answer = options.reply?.({
        system: request.messages.find((m) => m.role === 'system')?.content ?? '',
        user: users[users.length - 1]?.content ?? '',
        messages: request.messages,
        schemaName: request.response_format?.json_schema?.name ?? '',
        format,
        tools: request.tools ?? [],
      });
      const message: ChatMessage =
        answer && typeof answer === 'object' && TOOLS in answer
          ? {
              role: 'assistant',
              content: null,
              tool_calls: (answer[TOOLS] as Array<{ name: string; arguments: unknown }>).map((c, i) => ({
                id: `call_${calls.length}_${i}`,
                type: 'function',
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {
              role: 'assistant',
              content:
                typeof answer === 'string'
                  ? answer
                  : answer && typeof answer === 'object' && RAW in answer
                    ? (answer[RAW] as string)
                    : JSON.stringify(answer),
            };
      return send(200, {
        id: 'chatcmpl-double',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'double',
        choices: [{ index: 0, finish_reason: message.tool_calls ? 'tool_calls' : 'stop', message }],
        // As OpenAI reports it; counted roughly (a word a token), enough for a count to move.
        usage: {
          prompt_tokens: body.split(/\s+/).length,
          completion_tokens: (message.content ?? '').split(/\s+/).length,
          total_tokens: body.split(/\s+/).length + (message.content ?? '').split(/\s+/).length,
        },
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
    /** The chat requests received, parsed. */
    chatRequests: () =>
      calls
        .filter((c) => c.path === '/v1/chat/completions')
        .map(
          (c) =>
            JSON.parse(Buffer.from(c.body, 'latin1').toString('utf8')) as {
              messages: ChatMessage[];
              tools?: ChatRequest['tools'];
              response_format?: { type: string };
            } & Record<string, unknown>,
        ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
