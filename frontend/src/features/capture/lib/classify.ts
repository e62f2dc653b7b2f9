import type { AnalyzeContentAnswer } from '@haven/contracts/thoughts';

/** Whether captured text is a thought to save or a request for the assistant. */
export type ContentType = AnalyzeContentAnswer['type'];

const CHAT_PHRASES = ['hey haven', 'help me', 'can you'] as const;

/**
 * The keyword guess used when the analysis call fails (spec section 5): text that addresses the
 * assistant ('hey haven', 'help me', 'can you', any case) or starts with '?' is a chat.
 */
export function classifyByKeywords(text: string): ContentType {
  const normalized = text.trim().toLowerCase();
  if (normalized.startsWith('?')) return 'chat';
  return CHAT_PHRASES.some((phrase) => normalized.includes(phrase)) ? 'chat' : 'thought';
}
