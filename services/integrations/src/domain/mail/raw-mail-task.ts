import { headerFields, headerSection, threadIdOf } from './imap-threads';
import type { ParsedMessage } from './message';
import { parseRawMessage, type RawMessageMeta } from './raw-message';

/** What the mailbox knows of a raw message beside its bytes; its thread is read from its headers. */
export type RawMailMeta = Omit<RawMessageMeta, 'threadId'>;

/** The sandbox's `mail.parse-raw` task: a raw message read whole, its thread found by its headers. */
export function parseRawInSandbox({
  raw,
  meta,
}: {
  raw: Uint8Array;
  meta: RawMailMeta;
}): Promise<ParsedMessage> {
  const threadId = threadIdOf(headerFields(headerSection(raw)), meta.messageId);
  return parseRawMessage(raw, { ...meta, threadId });
}
