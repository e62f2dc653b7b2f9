import { z } from 'zod';
import {
  classifyByKeywords,
  classifyByRules,
  type ContentType as EntryType,
} from '@haven/contracts/classify';
import type { Logger } from '@haven/kit/logger';
import type { Llm } from '@haven/kit/llm';

const Classification = z.object({ type: z.enum(['thought', 'chat']) });

const SYSTEM = `You sort short entries in a personal journaling app. Answer "chat" when the entry asks the assistant to do or answer something (a question or a request addressed to it), and "thought" when it is a reflection, note, idea or feeling to keep. A note to self or a to-do written in the imperative ("Call mum tomorrow", "Schedule a meeting with Tom on Thursday at 3pm") is a thought: the user is writing it down, not asking you. Answer only with JSON {"type": "thought" | "chat"}.`;

/**
 * The confident rules first (a note to self is never a chat, whatever a model thinks), then LLM
 * classification when configured; the keyword rule without it and on any failure.
 */
export async function classifyEntry(text: string, llm: Llm | null, log: Logger): Promise<EntryType> {
  const ruled = classifyByRules(text);
  if (ruled) return ruled;
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
