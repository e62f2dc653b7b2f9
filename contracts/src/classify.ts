/** Whether captured text is a thought to save or a request for the assistant. */
export type ContentType = 'thought' | 'chat';

const CHAT_PHRASES = ['hey haven', 'help me', 'can you'] as const;

/**
 * The spec's keyword rule (section 5), shared by the SPA (when the analysis call fails) and the
 * thoughts service (with no model, or when it fails): text that addresses the assistant ('hey
 * haven', 'help me', 'can you', any case) or starts with '?' is a chat.
 */
export function classifyByKeywords(text: string): ContentType {
  const normalized = text.trim().toLowerCase();
  if (normalized.startsWith('?')) return 'chat';
  return CHAT_PHRASES.some((phrase) => normalized.includes(phrase)) ? 'chat' : 'thought';
}
