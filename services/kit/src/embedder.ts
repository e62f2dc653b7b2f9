import OpenAI from 'openai';
import type { Config } from './config';
import type { Metrics } from './metrics';
import { measure, modelBreaker } from './model-calls';

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
  const breaker = modelBreaker();
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
