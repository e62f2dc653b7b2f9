import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gmailMessage } from '../../../../test/doubles/gmail-mime';
import { parseMessage } from '../../src/domain/mail/message';
import { isReplyCandidate } from '../../src/domain/mail/needs-reply';

/*
 * The labelled real mail for reply triage: the public messages in ../shared/corpora/mail (read
 * there, never copied into the project) and the cases written here for what they lack (own/), with
 * a label for each in labels.json, given by reading the message.
 */

/** The raw messages (CI has `shared/` beside the checkout). */
export const CORPUS = path.resolve(import.meta.dirname, '../../../..', '..', 'shared', 'corpora', 'mail');
const OWN = path.join(import.meta.dirname, 'own');

export const CLASSES = [
  'list-newsletter',
  'automated',
  'personal-asks',
  'personal-asks-nothing',
  'spam',
] as const;
export type MailClass = (typeof CLASSES)[number];

/** The mailbox the messages are delivered to. */
export const ACCOUNT = 'me@example.com';

/**
 * The addresses of the mailboxes the corpus was taken from (Enron's folder owners, the SpamAssassin
 * corpus' owner as its anonymiser wrote him): in their own Gmail, that address is the account's.
 */
const OWNERS = [
  'vince.kaminski@enron.com',
  'vince.j.kaminski@enron.com',
  'daren.farmer@enron.com',
  'daren.j.farmer@enron.com',
  'michelle.lokay@enron.com',
  'jeff_dasovich@enron.com',
  'yyyy@spamassassin.taint.org',
  'zzzz@spamassassin.taint.org',
  'jm@jmason.org',
];

export interface LabelledMail {
  /** The corpus file name, or `own/<name>` for a case written here. */
  file: string;
  label: MailClass;
  /** Tuning or held-out, by a hash of the file name. */
  half: 'tuning' | 'held-out';
  /** As Gmail would hold it in the account (see `asDelivered`). */
  raw: Buffer;
}

/** Tuning or held-out: the first byte of the file name's SHA-256, even or odd. */
export const halfOf = (file: string): LabelledMail['half'] =>
  createHash('sha256').update(file).digest()[0]! % 2 === 0 ? 'tuning' : 'held-out';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The raw message as it would sit in the account's Gmail: the mailbox owner's address in To/Cc is
 * the account's; personal mail that reached the owner without naming them (an alias, a Bcc) names
 * the account in To, as the person's own copy would. Everything else is the bytes as they are.
 */
export function asDelivered(raw: Buffer, label: MailClass): Buffer {
  const text = raw.toString('latin1');
  const end = /\r?\n\r?\n/.exec(text)?.index ?? text.length;
  let head = text.slice(0, end);
  const recipients = /^(to|cc):[^\n]*(\n[ \t][^\n]*)*/gim;
  const owners = new RegExp(OWNERS.map(escape).join('|'), 'gi');
  head = head.replace(recipients, (field) => field.replace(owners, ACCOUNT));
  const named = (head.match(recipients) ?? []).some((field) => field.toLowerCase().includes(ACCOUNT));
  if (label.startsWith('personal') && !named) {
    head = /^to:/im.test(head)
      ? head.replace(/^(to:)[ \t]*/im, `$1 ${ACCOUNT}, `)
      : `${head}${head ? '\n' : ''}To: ${ACCOUNT}`;
  }
  return Buffer.concat([Buffer.from(head, 'latin1'), raw.subarray(end)]);
}

const LABELS = JSON.parse(readFileSync(path.join(import.meta.dirname, 'labels.json'), 'utf8')) as Record<
  string,
  MailClass
>;

/** Every labelled message that is there (the corpus' only when ../shared is). */
export function labelledMail(): LabelledMail[] {
  const corpus = existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => f.endsWith('.eml')) : [];
  const own = readdirSync(OWN)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => `own/${f}`);
  return [...corpus, ...own].map((file) => {
    const label = LABELS[file];
    if (!label) throw new Error(`no label for ${file} in labels.json`);
    const raw = readFileSync(
      file.startsWith('own/') ? path.join(OWN, file.slice(4)) : path.join(CORPUS, file),
    );
    return { file, label, half: halfOf(file), raw: asDelivered(raw, label) };
  });
}

/**
 * Delivers the messages into a Gmail account of the stand-in as Gmail holds them: the inbox label
 * only (no categories to help), newest first. Answers the message of each Gmail id.
 */
export function deliver(
  account: { addRaw(raw: Buffer, options: { labelIds: string[]; date: Date }): { id: string } },
  mail: LabelledMail[],
): Map<string, LabelledMail> {
  return new Map(
    mail.map((m, i) => [
      account.addRaw(m.raw, { labelIds: ['INBOX'], date: new Date(Date.now() - i * 60_000) }).id,
      m,
    ]),
  );
}

/**
 * What the sync decides for one message on its own (a thread of one): parsed as Gmail answers it,
 * with the inbox label only, then whether a person waits for the account's reply.
 */
export function triage(mail: LabelledMail) {
  const { payload, snippet } = gmailMessage(mail.raw);
  const parsed = parseMessage({
    id: mail.file,
    threadId: mail.file,
    labelIds: ['INBOX'],
    internalDate: String(Date.now()),
    snippet,
    payload,
  });
  return { parsed, needsReply: isReplyCandidate(parsed, ACCOUNT) };
}

export interface Figures {
  /** Per class and half: how many messages, how many marked as needing a reply. */
  counts: Record<MailClass, Record<LabelledMail['half'], { total: number; needsReply: number }>>;
}

/** Messages marked as needing a reply, per class and half. */
export function figures(results: Array<{ mail: LabelledMail; needsReply: boolean }>): Figures {
  const counts = Object.fromEntries(
    CLASSES.map((c) => [c, { tuning: { total: 0, needsReply: 0 }, 'held-out': { total: 0, needsReply: 0 } }]),
  ) as Figures['counts'];
  for (const { mail, needsReply } of results) {
    const cell = counts[mail.label][mail.half];
    cell.total++;
    if (needsReply) cell.needsReply++;
  }
  return { counts };
}

/** The share of a set of classes marked as needing a reply, on one half. */
export function share(
  f: Figures,
  classes: MailClass[],
  half: LabelledMail['half'],
): { marked: number; total: number; ratio: number } {
  const marked = classes.reduce((n, c) => n + f.counts[c][half].needsReply, 0);
  const total = classes.reduce((n, c) => n + f.counts[c][half].total, 0);
  return { marked, total, ratio: total ? marked / total : 0 };
}
