import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@haven/kit/logger';
import { testConfig } from '@haven/kit/testing';
import { startSmtpCatcher } from '../../../test/doubles/smtp-catcher';
import { createMailTransport } from '../src/mail/transport';

describe('the mail transport', () => {
  it('says where a local catcher shows the mail it delivered, never the code', async () => {
    const smtp = await startSmtpCatcher();
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    try {
      const send = createMailTransport(
        testConfig({ SMTP_URL: smtp.url, MAIL_INBOX_URL: 'http://localhost:1080' }),
        createLogger({ name: 'auth', destination }),
      );
      await send('m1', {
        to: 'new@example.com',
        subject: 'Your code is 123456',
        text: 'Code 123456',
        html: '<p>Code 123456</p>',
      });
      expect((await smtp.waitFor('new@example.com')).text).toContain('123456');
      expect(lines).toEqual([
        expect.objectContaining({ msg: 'mail sent: read it at http://localhost:1080', mailId: 'm1' }),
      ]);
      expect(JSON.stringify(lines)).not.toContain('123456');
    } finally {
      await smtp.stop();
    }
  });
});
