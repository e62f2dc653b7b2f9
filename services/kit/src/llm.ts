import OpenAI, { toFile } from 'openai';
import { z } from 'zod';
import type { Config } from './config';

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
  /** Speech to text for a recording. */
  transcribe(
    audio: Buffer,
    options: { filename: string; mimeType: string; timeoutMs?: number },
  ): Promise<string>;
}

/** The model used for speech to text (Whisper's API name). */
export const TRANSCRIPTION_MODEL = 'whisper-1';

/** The configured LLM, or null when no key is set (a supported mode: callers use local fallbacks). */
export function createLlm(
  config: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'>,
): Llm | null {
  if (!config.OPENAI_API_KEY) return null;
  const client = new OpenAI({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    maxRetries: 1,
  });
  return {
    async json({ name, system, user, schema, timeoutMs = 20_000 }) {
      const completion = await client.chat.completions.create(
        {
          model: config.OPENAI_MODEL,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          response_format: {
            type: 'json_schema',
            json_schema: { name, schema: z.toJSONSchema(schema) as Record<string, unknown> },
          },
        },
        { timeout: timeoutMs },
      );
      const content = completion.choices[0]?.message?.content;
      if (!content) throw new Error('The model returned no content');
      return schema.parse(JSON.parse(content));
    },
    async transcribe(audio, { filename, mimeType, timeoutMs = 60_000 }) {
      const result = await client.audio.transcriptions.create(
        { file: await toFile(audio, filename, { type: mimeType }), model: TRANSCRIPTION_MODEL },
        { timeout: timeoutMs },
      );
      return result.text.trim();
    },
  };
}
