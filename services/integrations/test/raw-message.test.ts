import { describe, expect, it } from 'vitest';
import { isReplyCandidate } from '../src/domain/mail/needs-reply';
import { parseRawMessage } from '../src/domain/mail/raw-message';
import { ACCOUNT, CORPUS, figures, labelledMail, share, triage } from './mail-corpus/corpus';
import { corpusPresent } from '@haven/kit/corpus';

/*
 * Mail read from its raw bytes, as an IMAP account gives it (parseRawMessage), decides as the same
 * mail read through Gmail's API shape: on the real corpus of ../shared/corpora/mail and the written
 * cases, message by message, and with the figures on the held-out half.
 */
const mail = labelledMail();

async function rawTriage(m: (typeof mail)[number]) {
  const parsed = await parseRawMessage(m.raw, {
    messageId: m.file,
    threadId: m.file,
    labelIds: ['INBOX'],
    receivedAt: new Date(),
  });
  return { parsed, needsReply: isReplyCandidate(parsed, ACCOUNT) };
}

describe('reading raw mail (IMAP) as Gmail’s shape is read', () => {
  it('decides every labelled message alike: who wrote it, whether a machine did, what it asks', async () => {
    const differing: string[] = [];
    for (const m of mail) {
      const viaRaw = await rawTriage(m);
      const viaGmail = triage(m);
      const view = (t: typeof viaRaw) => ({
        needsReply: t.needsReply,
        machine: t.parsed.machine.length > 0,
        fromAddress: t.parsed.fromAddress,
        recipients: t.parsed.recipients,
        subject: t.parsed.subject,
      });
      if (JSON.stringify(view(viaRaw)) !== JSON.stringify(view(viaGmail)))
        differing.push(
          `${m.file}: raw ${JSON.stringify(view(viaRaw))} gmail ${JSON.stringify(view(viaGmail))}`,
        );
    }
    expect(differing).toEqual([]);
  });

  it.runIf(corpusPresent(CORPUS))(
    'meets the figures on the held-out half: machines’ mail ≤5%, asks ≥95%, asks-nothing ≤20%',
    async () => {
      const results = [];
      for (const m of mail.filter((x) => !x.file.startsWith('own/')))
        results.push({ mail: m, needsReply: (await rawTriage(m)).needsReply });
      const f = figures(results);
      expect(share(f, ['list-newsletter', 'automated'], 'held-out').ratio).toBeLessThanOrEqual(0.05);
      expect(share(f, ['personal-asks'], 'held-out').ratio).toBeGreaterThanOrEqual(0.95);
      expect(share(f, ['personal-asks-nothing'], 'held-out').ratio).toBeLessThanOrEqual(0.2);
    },
  );

  it('reads encoded names and subjects, the body, and an invitation’s answer', async () => {
    const raw = Buffer.from(
      [
        'From: =?UTF-8?B?w4Fkw6E=?= <ada@example.com>',
        'To: me@example.com',
        'Subject: =?UTF-8?Q?Caf=C3=A9?= on Friday?',
        'Message-ID: <a1@example.com>',
        'Content-Type: multipart/mixed; boundary=x',
        '',
        '--x',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        'Could you confirm the caf=C3=A9 on Friday?',
        '--x',
        'Content-Type: text/calendar; method=REPLY',
        '',
        'BEGIN:VCALENDAR',
        'END:VCALENDAR',
        '--x--',
        '',
      ].join('\r\n'),
    );
    const parsed = await parseRawMessage(raw, { messageId: 'm1', threadId: 't1', labelIds: ['INBOX'] });
    expect(parsed).toMatchObject({
      from: 'Ádá',
      fromAddress: 'ada@example.com',
      subject: 'Café on Friday?',
      messageIdHeader: '<a1@example.com>',
      snippet: 'Could you confirm the café on Friday?',
      machine: ['calendar-answer'],
    });
    expect(parsed.body?.html).toContain('Could you confirm the café on Friday?');
  });
});
