import { z } from 'zod';
import { classifyByKeywords, type ContentType as EntryType } from '@haven/contracts/classify';
import type { Logger } from '@haven/kit/logger';
import type { Llm } from '@haven/kit/llm';

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
    log.warn({ err }, 'classification failed; using the keyword rule');
    return classifyByKeywords(text);
  }
}
