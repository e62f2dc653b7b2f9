import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '@haven/kit/config';
import type { Logger } from '@haven/kit/logger';
import type { MailMessage } from './messages';

/** Delivers one message; resolves once the SMTP server (or the outbox folder) has it. */
export type MailTransport = (id: string, message: MailMessage) => Promise<void>;

/**
 * SMTP when SMTP_URL is set. Without it, each message is written to DATA_DIR/outbox/<id>.eml so a
 * local user can still read the code, and the log says where (never the code itself).
 */
export function createMailTransport(config: Config, log: Logger): MailTransport {
  if (config.SMTP_URL) {
    const transporter = nodemailer.createTransport(config.SMTP_URL);
    const inbox = config.MAIL_INBOX_URL;
    return async (id, message) => {
      await transporter.sendMail({ from: config.MAIL_FROM, ...message });
      if (inbox)
        log.info(
          { mailId: id, subject: message.subject.replace(/\d{6}/, '••••••'), inbox },
          `mail sent: read it at ${inbox}`,
        );
    };
  }
  const folder = config.DATA_DIR.startsWith('memory://')
    ? undefined
    : path.resolve(config.DATA_DIR, 'outbox');
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return async (id, message) => {
    const { message: raw } = (await writer.sendMail({ from: config.MAIL_FROM, ...message })) as {
      message: Buffer;
    };
    if (folder) {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const file = path.join(folder, `${id}.eml`);
      await writeFile(file, raw, { mode: 0o600 });
      log.info(
        { file, subject: message.subject.replace(/\d{6}/, '••••••') },
        'no SMTP_URL set: mail written to the outbox folder',
      );
    } else {
      log.warn({ mailId: id }, 'no SMTP_URL and no DATA_DIR folder: mail dropped');
    }
  };
}
