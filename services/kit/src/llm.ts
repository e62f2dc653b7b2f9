import { ExponentialBackoff, handleWhen, retry, wrap, type CircuitBreakerPolicy } from 'cockatiel';
import OpenAI, { toFile } from 'openai';
import { z } from 'zod';
import type { Config } from './config';
import type { Metrics } from './metrics';
import { isOutage, measure, modelBreaker, type Measured } from './model-calls';

export { BREAKER_FAILURES, BREAKER_HALF_OPEN_MS, isModelUnavailable, modelErrorKind } from './model-calls';
export { createEmbedder, EMBED_BATCH, normalise, type Embedder } from './embedder';

/**
 * The one small module every AI feature goes through: any OpenAI-compatible server (OpenAI,
 * Ollama, vLLM, LM Studio) by OPENAI_BASE_URL. Answers are structured outputs validated with zod,
 * so a malformed answer is an error the caller can fall back from, never a half-read object.
 */
export interface Llm {
  /** Asks for a JSON object matching `schema`; rejects on timeout, HTTP error or a bad answer. */
  json<S extends z.ZodType>(request: {
    name: string;
    system: string;
    user: string;
    schema: S;
    timeoutMs?: number;
  }): Promise<z.infer<S>>;
  /**
   * One turn of a conversation with tools: the model answers with text, or asks for tool calls the
   * caller executes and feeds back (as `tool` messages) in the next turn. Someone is waiting for it:
   * it times out after OPENAI_TIMEOUT_MS and is tried once more, and rejects at once while the
   * model server is known to be down (see `isModelUnavailable`).
   */
  chat(request: {
    messages: ChatMessage[];
    tools?: ToolSpec[];
    timeoutMs?: number;
  }): Promise<{ content: string | null; toolCalls: ToolCall[] }>;
  /** Speech to text for a recording. */
  transcribe(
    audio: Buffer,
    options: { filename: string; mimeType: string; timeoutMs?: number },
  ): Promise<string>;
}

/** A message of a conversation with the model, in the Chat Completions shape. */
export type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** A tool the model may call: its name, what it does, and its arguments' schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: z.ZodType;
}

/** A call the model asked for; `arguments` is the model's JSON text, to be validated by the caller. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The model used for speech to text (Whisper's API name). */
export const TRANSCRIPTION_MODEL = 'whisper-1';

/**
 * A server that refused `response_format: json_schema` itself: a 4xx (or 501) whose error names the
 * response format. Any other 400 (a context too long, a bad model name) is that request's failure,
 * not a reason to ask differently.
 */
function refusesJsonSchema(err: unknown): boolean {
  const { status, message, error } = err as { status?: number; message?: string; error?: unknown };
  if (status !== 400 && status !== 422 && status !== 501) return false;
  return /response_format|json_schema|structured output/i.test(
    `${message ?? ''} ${JSON.stringify(error ?? '')}`,
  );
}

/** Parses and validates a model's answer; the error says what was wrong without echoing the text. */
function parseAnswer<S extends z.ZodType>(content: string | null | undefined, schema: S): z.infer<S> {
  if (!content) throw new Error('The model returned no content');
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw new Error('The model did not answer JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new Error(`The model's answer does not match the schema: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** What the parts of one model client share: the client, the model, the breaker and the measuring. */
interface ModelClient {
  client: OpenAI;
  model: string;
  /** One breaker for every call of this process to the model server (see `createLlm`). */
  breaker: CircuitBreakerPolicy;
  measured: Measured;
  metrics?: Metrics;
}

/**
 * Structured output, in the order servers support it: `json_schema` first (unless configured
 * otherwise); if the server refuses that response format for this request, a JSON object with the
 * schema in the prompt. An answer that fails the schema is asked for
 * once more; a second bad answer rejects, and the caller falls back to its local engine.
 */
function createJson(
  { client, model, breaker, measured, metrics }: ModelClient,
  objectFirst: boolean,
): Llm['json'] {
  async function complete(
    messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
    responseFormat: OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'],
    timeoutMs: number,
  ): Promise<string | null | undefined> {
    const completion = await breaker.execute(() =>
      measured('json', () =>
        client.chat.completions.create(
          { model, messages, response_format: responseFormat },
          { timeout: timeoutMs },
        ),
      ),
    );
    return completion.choices[0]?.message?.content;
  }

  return async function json({ name, system, user, schema, timeoutMs = 20_000 }) {
    const jsonSchema = z.toJSONSchema(schema) as Record<string, unknown>;
    const messages = [
      { role: 'system' as const, content: system },
      { role: 'user' as const, content: user },
    ];
    const asObject = async () =>
      complete(
        [
          {
            role: 'system',
            content: `${system}\n\nAnswer with one JSON object only, no prose, matching this JSON Schema:\n${JSON.stringify(jsonSchema)}`,
          },
          { role: 'user', content: user },
        ],
        { type: 'json_object' },
        timeoutMs,
      );
    const ask = async (): Promise<string | null | undefined> => {
      if (objectFirst) return asObject();
      try {
        return await complete(
          messages,
          { type: 'json_schema', json_schema: { name, schema: jsonSchema } },
          timeoutMs,
        );
      } catch (err) {
        if (!refusesJsonSchema(err)) throw err;
        return asObject();
      }
    };
    const parsed = async () => {
      const content = await ask();
      try {
        return parseAnswer(content, schema);
      } catch (err) {
        metrics?.modelErrors.inc({ operation: 'json', kind: 'invalid_answer' });
        throw err;
      }
    };
    try {
      return await parsed();
    } catch (err) {
      if ((err as { status?: number }).status !== undefined) throw err;
      return parsed();
    }
  };
}

/** The tools offered to the model, in the Chat Completions shape (none when there are none). */
function toolsParam(tools: ToolSpec[] | undefined) {
  if (!tools || tools.length === 0) return {};
  return {
    tools: tools.map((t) => ({
      type: 'function' as const,
      function: {
        name: t.name,
        description: t.description,
        parameters: z.toJSONSchema(t.parameters) as Record<string, unknown>,
      },
    })),
  };
}

/** A turn of a conversation with tools, tried once more after an outage unless the breaker is open. */
function createChat({ client, model, breaker, measured }: ModelClient, replyTimeoutMs: number): Llm['chat'] {
  // A reply's call is tried once more after a short, jittered pause, unless the breaker is open.
  const retryOnce = retry(handleWhen(isOutage), {
    maxAttempts: 1,
    backoff: new ExponentialBackoff({ initialDelay: 500, maxDelay: 2000 }),
  });
  const replyPolicy = wrap(retryOnce, breaker);

  return async function chat({ messages, tools, timeoutMs = replyTimeoutMs }) {
    const completion = await replyPolicy.execute(() =>
      measured('chat', () =>
        client.chat.completions.create(
          { model, messages, ...toolsParam(tools) },
          // The retry is ours (bounded, and none while the breaker is open), not the SDK's.
          { timeout: timeoutMs, maxRetries: 0 },
        ),
      ),
    );
    const message = completion.choices[0]?.message;
    const toolCalls: ToolCall[] = (message?.tool_calls ?? []).flatMap((c) =>
      c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
    );
    return { content: message?.content ?? null, toolCalls };
  };
}

/** Speech to text, through the same breaker. */
function createTranscribe({ client, breaker, measured }: ModelClient): Llm['transcribe'] {
  return async function transcribe(audio, { filename, mimeType, timeoutMs = 60_000 }) {
    const file = await toFile(audio, filename, { type: mimeType });
    const result = await breaker.execute(() =>
      measured('transcribe', () =>
        client.audio.transcriptions.create({ file, model: TRANSCRIPTION_MODEL }, { timeout: timeoutMs }),
      ),
    );
    return result.text.trim();
  };
}

/**
 * The configured LLM, or null when none is (a supported mode: callers use local fallbacks). A base
 * URL alone is enough: Ollama, LM Studio and vLLM need no key. With `metrics`, every request is
 * measured (`haven_model_*`).
 */
export function createLlm(
  config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'> &
    Partial<Pick<Config, 'OPENAI_JSON_MODE' | 'OPENAI_TIMEOUT_MS'>>,
  metrics?: Metrics,
): Llm | null {
  if (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL) return null;
  const client = new OpenAI({
    apiKey: config.OPENAI_API_KEY ?? 'no-key',
    baseURL: config.OPENAI_BASE_URL,
    maxRetries: 1,
  });
  // Decided by configuration, never learnt: one refused request must not change how every later
  // request of this process asks (two replicas would behave differently).
  const objectFirst = config.OPENAI_JSON_MODE === 'json_object';
  // One breaker for every call of this process to the model server: after BREAKER_FAILURES calls in
  // a row that got no answer, calls fail at once (insights fall back to their local engine, a reply
  // says the assistant is not answering) until a probe call after BREAKER_HALF_OPEN_MS succeeds.
  // Each process learns this on its own, within a few calls; no shared state is needed for that.
  const parts: ModelClient = {
    client,
    model: config.OPENAI_MODEL,
    breaker: modelBreaker(),
    measured: measure(metrics, config.OPENAI_MODEL),
    metrics,
  };
  return {
    json: createJson(parts, objectFirst),
    chat: createChat(parts, config.OPENAI_TIMEOUT_MS ?? 8000),
    transcribe: createTranscribe(parts),
  };
}
