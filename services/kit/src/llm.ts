import {
  BrokenCircuitError,
  circuitBreaker,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  retry,
  wrap,
} from 'cockatiel';
import OpenAI, { APIConnectionTimeoutError, APIError, toFile } from 'openai';
import { z } from 'zod';
import type { Config } from './config';
import type { Metrics } from './metrics';
import { inSpan, SpanKind } from './tracing';

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

/** Consecutive failed calls (timeouts, refused connections, 5xx, 429) that mark the model server down. */
export const BREAKER_FAILURES = 3;
/** How long calls are refused once it is down, before one call is let through to see if it is back. */
export const BREAKER_HALF_OPEN_MS = 10_000;

/** An error that says the model server did not answer (down, hanging, overloaded), not a bad request. */
function isOutage(err: unknown): boolean {
  if (err instanceof OpenAI.APIConnectionError) return true; // refused, reset, or timed out
  const status = (err as { status?: number }).status;
  return err instanceof OpenAI.APIError && (status === 408 || status === 429 || (status ?? 0) >= 500);
}

/**
 * True when a model call failed because the model server is not answering (or was known not to be,
 * and was not asked): the caller can say so to the user instead of retrying for minutes.
 */
export function isModelUnavailable(err: unknown): boolean {
  return err instanceof BrokenCircuitError || isOutage(err);
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

/** What kind of failure a model request met, as a bounded label for the error counter. */
export function modelErrorKind(err: unknown): string {
  if (err instanceof APIConnectionTimeoutError) return 'timeout';
  if (err instanceof APIError && err.status !== undefined) {
    if (err.status === 429) return 'rate_limited';
    return err.status >= 500 ? 'server_error' : 'client_error';
  }
  if (err instanceof APIError) return 'connection';
  return 'other';
}

/** What the model server says it used: chat completions name it prompt/completion, audio input/output. */
interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
  input_tokens?: number;
  output_tokens?: number;
}

/**
 * Times one request to the model server and counts its tokens (where the server reports them) and,
 * on failure, its kind of error; when tracing, the request is a span with the same facts.
 */
function measure(metrics: Metrics | undefined, model: string) {
  return <T>(operation: string, request: () => Promise<T>): Promise<T> =>
    inSpan(
      `model ${operation}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'gen_ai.operation.name': operation, 'gen_ai.request.model': model },
      },
      async (span) => {
        const end = metrics?.model.startTimer({ operation });
        try {
          const answer = await request();
          end?.({ outcome: 'ok' });
          const usage = (answer as { usage?: Usage | null }).usage;
          const prompt = usage?.prompt_tokens ?? usage?.input_tokens;
          const completion = usage?.completion_tokens ?? usage?.output_tokens;
          if (prompt) metrics?.modelTokens.inc({ operation, type: 'prompt' }, prompt);
          if (completion) metrics?.modelTokens.inc({ operation, type: 'completion' }, completion);
          span?.setAttributes({
            ...(prompt ? { 'gen_ai.usage.input_tokens': prompt } : {}),
            ...(completion ? { 'gen_ai.usage.output_tokens': completion } : {}),
          });
          return answer;
        } catch (err) {
          end?.({ outcome: 'error' });
          const kind = modelErrorKind(err);
          metrics?.modelErrors.inc({ operation, kind });
          span?.setAttribute('error.type', kind);
          throw err;
        }
      },
    );
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
  const breaker = circuitBreaker(handleWhen(isOutage), {
    halfOpenAfter: BREAKER_HALF_OPEN_MS,
    breaker: new ConsecutiveBreaker(BREAKER_FAILURES),
  });
  // A reply's call is tried once more after a short, jittered pause, unless the breaker is open.
  const retryOnce = retry(handleWhen(isOutage), {
    maxAttempts: 1,
    backoff: new ExponentialBackoff({ initialDelay: 500, maxDelay: 2000 }),
  });
  const replyPolicy = wrap(retryOnce, breaker);
  const replyTimeoutMs = config.OPENAI_TIMEOUT_MS ?? 8000;
  const measured = measure(metrics, config.OPENAI_MODEL);

  async function complete(
    messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
    responseFormat: OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'],
    timeoutMs: number,
  ): Promise<string | null | undefined> {
    const completion = await breaker.execute(() =>
      measured('json', () =>
        client.chat.completions.create(
          { model: config.OPENAI_MODEL, messages, response_format: responseFormat },
          { timeout: timeoutMs },
        ),
      ),
    );
    return completion.choices[0]?.message?.content;
  }

  return {
    /**
     * Structured output, in the order servers support it: `json_schema` first (unless configured
     * otherwise); if the server refuses that response format for this request, a JSON object with the
     * schema in the prompt. An answer that fails the schema is asked for
     * once more; a second bad answer rejects, and the caller falls back to its local engine.
     */
    async json({ name, system, user, schema, timeoutMs = 20_000 }) {
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
    },
    async chat({ messages, tools, timeoutMs = replyTimeoutMs }) {
      const completion = await replyPolicy.execute(() =>
        measured('chat', () =>
          client.chat.completions.create(
            {
              model: config.OPENAI_MODEL,
              messages,
              ...(tools && tools.length > 0
                ? {
                    tools: tools.map((t) => ({
                      type: 'function' as const,
                      function: {
                        name: t.name,
                        description: t.description,
                        parameters: z.toJSONSchema(t.parameters) as Record<string, unknown>,
                      },
                    })),
                  }
                : {}),
            },
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
    },
    async transcribe(audio, { filename, mimeType, timeoutMs = 60_000 }) {
      const file = await toFile(audio, filename, { type: mimeType });
      const result = await breaker.execute(() =>
        measured('transcribe', () =>
          client.audio.transcriptions.create({ file, model: TRANSCRIPTION_MODEL }, { timeout: timeoutMs }),
        ),
      );
      return result.text.trim();
    },
  };
}

/** Turns texts into vectors (search by meaning): the configured embeddings model, batched. */
export interface Embedder {
  /** The model's name, stored with every vector so that a change of model recomputes them. */
  readonly model: string;
  /**
   * One unit-length vector per text, in order; rejects on timeout, HTTP error or a malformed answer
   * (and at once while the model server is known to be down, see `isModelUnavailable`).
   */
  embed(texts: string[], options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<Float32Array[]>;
}

/** How many texts go in one request to the embeddings endpoint. */
export const EMBED_BATCH = 64;

/** `v` scaled to length 1 in place (a zero vector stays zero); returns it. */
export function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}

/** One embedding as a server sends it: numbers, or base64 float32 when it honours that format. */
function vectorOf(embedding: unknown): Float32Array {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  if (Array.isArray(embedding) && embedding.every((x) => typeof x === 'number' && Number.isFinite(x)))
    return Float32Array.from(embedding as number[]);
  throw new Error('The embeddings model answered something that is not a vector');
}

/**
 * The embeddings model (OPENAI_EMBEDDINGS_MODEL at OPENAI_BASE_URL, a key only where the server
 * wants one), or null when none is configured: search by meaning is then off. Requests are measured
 * like the chat client's (`haven_model_*`, operation `embed`), time out after `timeoutMs` (default
 * OPENAI_TIMEOUT_MS), and share one circuit breaker, so a model that is down is known within a few
 * calls and a search says so at once instead of waiting for each timeout.
 */
export function createEmbedder(
  config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_EMBEDDINGS_MODEL'> &
    Partial<Pick<Config, 'OPENAI_TIMEOUT_MS'>>,
  metrics?: Metrics,
): Embedder | null {
  if (!config.OPENAI_EMBEDDINGS_MODEL || (!config.OPENAI_API_KEY && !config.OPENAI_BASE_URL)) return null;
  const model = config.OPENAI_EMBEDDINGS_MODEL;
  const client = new OpenAI({
    apiKey: config.OPENAI_API_KEY ?? 'no-key',
    baseURL: config.OPENAI_BASE_URL,
    maxRetries: 0,
  });
  const breaker = circuitBreaker(handleWhen(isOutage), {
    halfOpenAfter: BREAKER_HALF_OPEN_MS,
    breaker: new ConsecutiveBreaker(BREAKER_FAILURES),
  });
  const measured = measure(metrics, model);
  const defaultTimeout = config.OPENAI_TIMEOUT_MS ?? 8000;

  async function batch(input: string[], timeoutMs: number, signal?: AbortSignal): Promise<Float32Array[]> {
    const answer = await breaker.execute(() =>
      measured('embed', () =>
        client.embeddings.create(
          // Floats asked for by name: the SDK's default (base64) is not understood by every server.
          { model, input, encoding_format: 'float' },
          { timeout: timeoutMs, ...(signal ? { signal } : {}) },
        ),
      ),
    );
    const data = [...(answer.data ?? [])].sort((a, b) => a.index - b.index);
    if (data.length !== input.length)
      throw new Error(`The embeddings model answered ${data.length} vectors for ${input.length} texts`);
    const vectors = data.map((d) => normalise(vectorOf(d.embedding)));
    const dims = vectors[0]?.length ?? 0;
    if (dims === 0 || vectors.some((v) => v.length !== dims))
      throw new Error('The embeddings model answered vectors of differing or no length');
    return vectors;
  }

  return {
    model,
    async embed(texts, { timeoutMs = defaultTimeout, signal } = {}) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH)
        out.push(...(await batch(texts.slice(i, i + EMBED_BATCH), timeoutMs, signal)));
      return out;
    },
  };
}
