import { z } from 'zod';
import type { Logger } from '@haven/kit/logger';
import type { Llm } from '@haven/kit/llm';

export type EntryType = 'thought' | 'chat';

const CHAT_PHRASES = ['hey haven', 'help me', 'can you'];

/** The spec's keyword rule: a request to the assistant rather than a thought to keep. */
export function classifyByKeywords(text: string): EntryType {
  const lower = text.trim().toLowerCase();
  return lower.startsWith('?') || CHAT_PHRASES.some((p) => lower.includes(p)) ? 'chat' : 'thought';
}

const Classification = z.object({ type: z.enum(['thought', 'chat']) });

const SYSTEM = `You sort short entries in a personal journaling app. Answer "chat" when the entry asks the assistant to do or answer something (a question or a request addressed to it), and "thought" when it is a reflection, note, idea or feeling to keep. Answer only with JSON {"type": "thought" | "chat"}.`;

/** LLM classification when configured; the keyword rule without it and on any failure. */
export async function classifyEntry(text: string, llm: Llm | null, log: Logger): Promise<EntryType> {
  if (!llm) return classifyByKeywords(text);
  try {
    const { type } = await llm.json({
      name: 'entry_type',
      system: SYSTEM,
      user: text,
      schema: Classification,
      timeoutMs: 5000,
    });
    return type;
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'classification failed; using the keyword rule');
    return classifyByKeywords(text);
  }
}
