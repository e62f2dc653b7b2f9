import type { gmail_v1 } from 'googleapis';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@haven/kit/logger';
import { createMailSandbox, sandboxedMailParser, sandboxedRawMailParser } from './mail-parser';
import { parseRawInSandbox } from './raw-mail-task';
import { parseMessage } from './message';

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** A Gmail message (format full) with these headers and an HTML body. */
const message = (id: string, subject: string, html: string): gmail_v1.Schema$Message => ({
  id,
  threadId: `t-${id}`,
  internalDate: String(Date.parse('2026-11-20T09:00:00Z')),
  labelIds: ['INBOX', 'UNREAD'],
  snippet: 'Could you send me the report?',
  payload: {
    mimeType: 'multipart/alternative',
    headers: [
      { name: 'From', value: 'Ana Lima <ana@example.org>' },
      { name: 'To', value: 'me@example.com' },
      { name: 'Subject', value: subject },
      { name: 'Message-ID', value: `<${id}@example.org>` },
    ],
    parts: [
      { mimeType: 'text/plain', body: { data: b64('Could you send me the report by Friday?') } },
      { mimeType: 'text/html', body: { data: b64(html) } },
    ],
  },
});

describe('mail bodies parsed in the sandbox', () => {
  // A small heap, so that a body only a few megabytes big is past it for real.
  const pool = createMailSandbox({ heapMb: 24, timeMs: 5000 });
  const parse = sandboxedMailParser(pool, createLogger({ name: 'test', level: 'silent' }));
  afterAll(() => pool.close());

  it('reads ordinary mail exactly as in the service process', async () => {
    const m = message('m1', 'The report', '<p>Could you send me the report by <b>Friday</b>?</p>');
    expect(await parse(m)).toEqual(parseMessage(m));
    expect((await parse(m)).asks.length).toBeGreaterThan(0);
  });

  it('keeps a message whose body is past the sandbox’s limits by its headers, and reads the next', async () => {
    const huge = message('m2', 'Huge', `<div>${'<p>word </p>'.repeat(2_000_000)}</div>`);
    const kept = await parse(huge);
    expect(kept).toMatchObject({
      messageId: 'm2',
      threadId: 't-m2',
      subject: 'Huge',
      fromAddress: 'ana@example.org',
      labelIds: ['INBOX', 'UNREAD'],
      asks: [],
      ownText: '',
    });
    expect(kept.body).toBeUndefined();
    const next = message('m3', 'Lunch?', '<p>Lunch on Thursday?</p>');
    expect(await parse(next)).toEqual(parseMessage(next));
  }, 30_000);

  describe('raw mail (IMAP)', () => {
    const parseRaw = sandboxedRawMailParser(pool, createLogger({ name: 'test', level: 'silent' }));
    const raw = (id: string, html: string) =>
      Buffer.from(
        [
          'From: Ana Lima <ana@example.org>',
          'To: me@example.com',
          'Subject: The report',
          `Message-ID: <${id}@example.org>`,
          'References: <start@example.org>',
          'Content-Type: text/html; charset=utf-8',
          '',
          html,
        ].join('\r\n'),
      );
    const meta = (id: string) => ({
      messageId: id,
      receivedAt: new Date('2026-11-20T09:00:00Z'),
      labelIds: ['INBOX'],
    });

    it('reads ordinary mail as in the service process, its thread found by its References', async () => {
      const m = raw('r1', '<p>Could you send me the report by <b>Friday</b>?</p>');
      const parsed = await parseRaw(m, meta('r1'));
      expect(parsed).toEqual(await parseRawInSandbox({ raw: m, meta: meta('r1') }));
      expect(parsed.threadId).toBe(`t${Buffer.from('start@example.org').toString('base64url')}`);
      expect(parsed.asks.length).toBeGreaterThan(0);
    });

    it('keeps one past the limits by its header section, and reads the next', async () => {
      const kept = await parseRaw(raw('r2', `<div>${'<p>word </p>'.repeat(2_000_000)}</div>`), meta('r2'));
      expect(kept).toMatchObject({
        messageId: 'r2',
        subject: 'The report',
        fromAddress: 'ana@example.org',
        asks: [],
      });
      expect(kept.threadId).toBe(`t${Buffer.from('start@example.org').toString('base64url')}`);
      expect(kept.body?.html ?? '').toBe('');
      const next = raw('r3', '<p>Lunch on Thursday?</p>');
      expect(await parseRaw(next, meta('r3'))).toEqual(
        await parseRawInSandbox({ raw: next, meta: meta('r3') }),
      );
    }, 30_000);
  });
});
