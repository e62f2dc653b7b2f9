import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The stand-in model's vector length. */
export const DOUBLE_DIMS = 256;

/**
 * Words that mean the same thing to the stand-in model: each is counted as its concept, so texts
 * with no word in common can still be alike ("worried about money" ~ "anxious about rent").
 */
const CONCEPTS: Record<string, string[]> = {
  money: [
    'money',
    'cash',
    'rent',
    'bills',
    'bill',
    'debt',
    'salary',
    'paycheck',
    'savings',
    'expenses',
    'afford',
  ],
  worry: [
    'worried',
    'worry',
    'worrying',
    'anxious',
    'anxiety',
    'afraid',
    'nervous',
    'scared',
    'stressed',
    'fear',
  ],
  happy: ['happy', 'joy', 'glad', 'delighted', 'cheerful'],
  sleep: ['sleep', 'slept', 'tired', 'insomnia', 'nap'],
  family: ['mum', 'mom', 'dad', 'sister', 'brother', 'family', 'parents'],
};
const CONCEPT_OF = new Map(Object.entries(CONCEPTS).flatMap(([c, words]) => words.map((w) => [w, c])));

/** Words that carry no meaning for the stand-in model. */
const STOP = new Set(
  'a an and the i me my we was were is am are be been to of in on at for with about when what why how this that it so did do had have has not no or but very really today'.split(
    ' ',
  ),
);

/**
 * The stand-in model: a hashed bag of concepts. Each meaningful word (its concept when it has one)
 * adds ±1 at three positions chosen by its hash; the vector is scaled to length 1. Deterministic,
 * so tests and benches get the same vectors every run; unrelated texts score about 0.
 */
export function doubleVector(text: string, dims = DOUBLE_DIMS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (STOP.has(word)) continue;
    const token = CONCEPT_OF.get(word) ?? word;
    const h = createHash('sha256').update(token).digest();
    for (let k = 0; k < 3; k++) v[h.readUInt16LE(k * 2) % dims]! += h[8 + k]! & 1 ? 1 : -1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm > 0 ? v.map((x) => x / norm) : v.map((_, i) => (i === 0 ? 1 : 0));
}

/**
 * An OpenAI-compatible embeddings server on a free local port: `POST /v1/embeddings` answers
 * `doubleVector` of each input (as floats, or base64 float32 when asked). `state.fail` makes it
 * answer 500, `state.hang` never answer (a model that is down either way); `inputs` counts the texts
 * it embedded and `requests` its calls. The product reaches it through OPENAI_BASE_URL only.
 */
export async function startEmbeddingsDouble(options: { dims?: number } = {}) {
  const dims = options.dims ?? DOUBLE_DIMS;
  const state = { fail: false, hang: false };
  const seen = { requests: 0, inputs: 0, batches: [] as number[], models: new Set<string>() };
  const hanging = new Set<() => void>();
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const server = createServer(async (req, res) => {
    const body = await read(req);
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method !== 'POST' || req.url !== '/v1/embeddings')
      return send(404, { error: { message: `no route ${req.url}` } });
    seen.requests++;
    if (state.hang) {
      // Answers only when the server stops (or never, as far as the client's timeout is concerned).
      await new Promise<void>((resolve) => hanging.add(resolve));
      return send(503, { error: { message: 'stopped' } });
    }
    if (state.fail) return send(500, { error: { message: 'double told to fail' } });
    const request = JSON.parse(body) as { model: string; input: string | string[]; encoding_format?: string };
    const inputs = Array.isArray(request.input) ? request.input : [request.input];
    seen.inputs += inputs.length;
    seen.batches.push(inputs.length);
    seen.models.add(request.model);
    send(200, {
      object: 'list',
      model: request.model,
      data: inputs.map((text, index) => {
        const v = doubleVector(text, dims);
        return {
          object: 'embedding',
          index,
          embedding:
            request.encoding_format === 'base64'
              ? Buffer.from(Float32Array.from(v).buffer).toString('base64')
              : v,
        };
      }),
      usage: { prompt_tokens: inputs.join(' ').split(/\s+/).length, total_tokens: 0 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    state,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const release of hanging) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
