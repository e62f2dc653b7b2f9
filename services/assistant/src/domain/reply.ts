import type { Llm } from '@haven/kit/llm';
import type { Logger } from '@haven/kit/logger';
import { aiReply } from './ai-reply';
import { localReply } from './local-reply';
import type { ReplyInput, ReplyOutput, ReplySources } from './reply-types';

export type { ReplyInput, ReplyOutput, ReplySources };

/** The reply to a question: the model's when one is configured, else the local one. */
export function writeReply(
  deps: { llm: Llm | null; sources: ReplySources; log: Logger },
  input: ReplyInput,
): Promise<ReplyOutput> {
  return deps.llm ? aiReply(deps.llm, deps.sources, input, deps.log) : localReply(deps.sources, input);
}
