import type { gmail_v1 } from 'googleapis';
import type { Logger } from '@haven/kit/logger';
import { SandboxLimitError, createSandboxPool, sandboxScript, type SandboxPool } from '@haven/kit/sandbox';
import { headerEnd } from './imap-threads';
import type { ParsedMessage } from './message';
import type { RawMailMeta } from './raw-mail-task';

/** Reads a message as the cache keeps it (see `parseMessage`), in the mail sandbox. */
export type ParseMail = (message: gmail_v1.Schema$Message) => Promise<ParsedMessage>;

/** Reads a raw RFC 5322 message (what IMAP answers) as the cache keeps it, in the mail sandbox. */
export type ParseRawMail = (raw: Uint8Array, meta: RawMailMeta) => Promise<ParsedMessage>;

/**
 * What one message may cost the sandbox: mail bodies are anyone's to write (a stranger can send a
 * user a megabyte of `?`), so they are parsed where a runaway parser hurts nobody else.
 */
export const MAIL_SANDBOX_LIMITS = { heapMb: 128, timeMs: 5000 };

/** The sandbox that parses mail bodies, one long-lived child process per service process. */
export function createMailSandbox(limits = MAIL_SANDBOX_LIMITS): SandboxPool {
  return createSandboxPool({
    script: () =>
      sandboxScript(import.meta.url, './parse-sandbox.ts', [
        'services',
        'integrations',
        'dist',
        'mail-sandbox.js',
      ]),
    limits,
  });
}

/**
 * `parseMessage` in the sandbox. A message the sandbox cannot read within its limits is kept by its
 * headers alone (sender, subject, date, labels; no body, nothing asked), and the log says which.
 */
export function sandboxedMailParser(pool: SandboxPool, log: Logger): ParseMail {
  return async (message) => {
    try {
      return await pool.run<ParsedMessage>('mail.parse', message);
    } catch (err) {
      if (!(err instanceof SandboxLimitError)) throw err;
      log.warn(
        { messageId: message.id, reason: err.message },
        'mail body not read: beyond the sandbox limits',
      );
      return headersOnly(pool, message);
    }
  };
}

/** The message without its body, parsed in the sandbox too; bare ids if even that fails. */
async function headersOnly(pool: SandboxPool, message: gmail_v1.Schema$Message): Promise<ParsedMessage> {
  const { payload, ...rest } = message;
  try {
    return await pool.run<ParsedMessage>('mail.parse', {
      ...rest,
      payload: { headers: payload?.headers ?? [] },
    });
  } catch (err) {
    if (!(err instanceof SandboxLimitError)) throw err;
    return bareMessage({
      messageId: message.id ?? '',
      threadId: message.threadId ?? message.id ?? '',
      receivedAt: message.internalDate ? new Date(Number(message.internalDate)) : new Date(),
      labelIds: message.labelIds ?? [],
    });
  }
}

/** A message known by its ids alone: nothing of it could be read within the limits. */
function bareMessage(
  ids: Pick<ParsedMessage, 'messageId' | 'threadId' | 'receivedAt' | 'labelIds'>,
): ParsedMessage {
  return {
    ...ids,
    from: '',
    fromFull: '',
    fromAddress: '',
    recipients: [],
    subject: '',
    snippet: '',
    machine: [],
    asks: [],
    ownText: '',
  };
}

/**
 * `parseRawMessage` in the sandbox, with the same fallbacks as `sandboxedMailParser`: beyond the
 * limits, the header section alone; beyond them even so, the ids.
 */
export function sandboxedRawMailParser(pool: SandboxPool, log: Logger): ParseRawMail {
  const run = (raw: Uint8Array, meta: RawMailMeta) =>
    pool.run<ParsedMessage>('mail.parse-raw', { raw, meta });
  return async (raw, meta) => {
    try {
      return await run(raw, meta);
    } catch (err) {
      if (!(err instanceof SandboxLimitError)) throw err;
      log.warn(
        { messageId: meta.messageId, reason: err.message },
        'mail body not read: beyond the sandbox limits',
      );
    }
    const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    try {
      return await run(Buffer.concat([bytes.subarray(0, headerEnd(bytes)), Buffer.from('\r\n\r\n')]), meta);
    } catch (err) {
      if (!(err instanceof SandboxLimitError)) throw err;
      return bareMessage({ ...meta, threadId: meta.messageId, receivedAt: meta.receivedAt ?? new Date() });
    }
  };
}
