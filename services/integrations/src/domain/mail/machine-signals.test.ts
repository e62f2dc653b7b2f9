import { describe, expect, it } from 'vitest';
import { machineSignals, type MachineInput } from './machine-signals';

/** A person's mail as Gmail answers it: a mail client's headers, nothing a machine adds. */
function personal(overrides: Partial<MachineInput> & { extra?: Record<string, string> } = {}): MachineInput {
  const { extra = {}, ...rest } = overrides;
  const replaced = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  return {
    headers: [
      { name: 'Return-Path', value: '<ann.lee@example.com>' },
      { name: 'Received', value: 'from mail.example.com by mx.google.com' },
      { name: 'DKIM-Signature', value: 'v=1; a=rsa-sha256; d=example.com' },
      { name: 'From', value: 'Ann Lee <ann.lee@example.com>' },
      { name: 'To', value: 'me@example.com' },
      { name: 'Subject', value: 'Lunch?' },
      { name: 'X-Mailer', value: 'Apple Mail (2.3731)' },
      // Exchange asks that nobody answers automatically, on people's mail too.
      { name: 'X-Auto-Response-Suppress', value: 'All' },
    ]
      .filter((h) => !replaced.has(h.name.toLowerCase()))
      .concat(Object.entries(extra).map(([name, value]) => ({ name, value }))),
    labelIds: ['INBOX', 'UNREAD'],
    fromAddress: 'ann.lee@example.com',
    recipients: ['me@example.com'],
    subject: 'Lunch?',
    text: () => 'Are you free for lunch on Friday?\n\n-- \nAnn',
    partTypes: ['text/plain; charset=utf-8'],
    ...rest,
  };
}

describe('machine signals', () => {
  it('finds none in a person’s mail (a forwarder’s SRS return path and an [EXTERNAL] tag included)', () => {
    expect(machineSignals(personal())).toEqual([]);
    expect(
      machineSignals(
        personal({
          subject: '[EXTERNAL] Re: Lunch?',
          extra: { 'Return-Path': '<SRS0=63fc=V7=example.com=ann.lee@forwarder.example>' },
        }),
      ),
    ).toEqual([]);
    expect(machineSignals(personal({ fromAddress: 'john.smith.1985@example.com' }))).toEqual([]);
  });

  it.each<[string, Partial<MachineInput> & { extra?: Record<string, string> }]>([
    ['gmail-category', { labelIds: ['INBOX', 'CATEGORY_PROMOTIONS'] }],
    ['list-headers', { extra: { 'List-Id': 'Friends <fork.xent.com>' } }],
    ['list-headers', { extra: { 'List-Post': '<mailto:fork@xent.com>' } }],
    ['list-headers', { extra: { 'List-Unsubscribe': '<https://news.example/u/1>' } }],
    ['list-server-headers', { extra: { 'X-BeenThere': 'fork@xent.com' } }],
    ['auto-submitted', { extra: { 'Auto-Submitted': 'auto-generated' } }],
    ['precedence', { extra: { Precedence: 'bulk' } }],
    ['precedence', { extra: { Precedence: 'list' } }],
    ['precedence', { extra: { Precedence: 'junk' } }],
    ['list-sender', { extra: { Sender: 'fork-admin@xent.com' } }],
    ['list-sender', { extra: { Sender: 'owner-rrga-l@list.rtowest.org' } }],
    ['list-sender', { extra: { Sender: 'spambayes-bounces+me=example.com@python.org' } }],
    ['list-sender', { extra: { Sender: 'Daily Slang <DAILYSLANG@LISTSERV.DLI.COM>' } }],
    ['x-loop', { extra: { 'X-Loop': 'exmh-users@example.org' } }],
    ['bounce-return-path', { extra: { 'Return-Path': '<news-bounce@letters.example>' } }],
    ['bounce-return-path', { extra: { 'Return-Path': '<bounces+4821-me=example.com@em1234.example>' } }],
    ['bounce-return-path', { extra: { 'Return-Path': '<tesco.ie@crrvja.bounce.12hs.example>' } }],
    [
      'bounce-return-path',
      { extra: { 'Return-Path': '<Online#3.19584.83-p1SYlJ1blFvQjRRR.1.b@newsletter.example>' } },
    ],
    ['feedback-id', { extra: { 'Feedback-ID': '1.eu-west-1.abc:AmazonSES' } }],
    ['esp-headers', { extra: { 'X-Mailchimp-Campaign': 'a1b2' } }],
    ['esp-headers', { extra: { 'X-SG-EID': 'abc' } }],
    ['esp-headers', { extra: { 'X-Mailgun-Sid': 'abc' } }],
    ['esp-headers', { extra: { 'X-SES-Outgoing': '2025.03.03' } }],
    ['esp-headers', { extra: { 'X-Campaign-Id': '42' } }],
    ['bulk-mailer', { extra: { 'X-Mailer': 'Accucast (http://www.accucast.com)' } }],
    ['bulk-mailer', { extra: { 'X-Mailer': 'ListManager Web Interface' } }],
    [
      'list-subject-tag',
      {
        subject: 'Re: [SAdev] mass-check',
        recipients: ['me@example.com', 'spamassassin-devel@lists.example'],
      },
    ],
    ['machine-sender', { fromAddress: 'no-reply@service.example' }],
    ['machine-sender', { fromAddress: 'mailer-daemon@mx.example' }],
    ['machine-sender', { fromAddress: 'rssfeeds@example.org' }],
    ['machine-sender', { fromAddress: 'lyris@listserv.example.com' }],
    ['machine-sender', { fromAddress: 'online#3.20455.d5-u1enl7s3adjcy9rr.1@newsletter.example.com' }],
    ['delivery-report', { partTypes: ['multipart/report; report-type=delivery-status'] }],
    ['calendar-answer', { subject: 'Accepted: Project sync @ Tue 10am' }],
    ['calendar-answer', { subject: 'Zugesagt: Teamessen' }],
    ['calendar-answer', { subject: 'Refusé : Point hebdo' }],
    ['calendar-answer', { subject: 'Provisional: Reunión' }],
    [
      'calendar-answer',
      { partTypes: ['multipart/alternative', 'text/calendar; charset=utf-8; method=REPLY'] },
    ],
    ['auto-reply', { subject: 'Automatic reply: Project update' }],
    ['auto-reply', { subject: 'Abwesenheitsnotiz: Grillen' }],
    ['receipt-subject', { subject: 'Your order confirmation #10482' }],
    ['receipt-subject', { subject: 'Bestellbestätigung Nr. 58213' }],
    ['unsubscribe-text', { text: () => 'Great deals.\n\nTo unsubscribe from this list, click here.' }],
    ['unsubscribe-text', { text: () => 'Neuigkeiten.\n\nNewsletter abbestellen: https://example.de/x' }],
    ['no-reply-text', { text: () => 'Your order shipped. Please do not reply to this email.' }],
    ['automated-text', { text: () => 'This message was automatically generated.' }],
    ['browser-view-text', { text: () => 'View this email in your browser' }],
    [
      'order-number-text',
      { text: () => 'Thank you for shopping with us. This email confirms your order number 21424229.' },
    ],
  ])('%s', (rule, overrides) => {
    expect(machineSignals(personal(overrides))).toContain(rule);
  });

  it('reads a [tag] as a list’s only when the mail went to a list’s address', () => {
    expect(machineSignals(personal({ subject: '[Photos] from the trip' }))).toEqual([]);
  });
});
