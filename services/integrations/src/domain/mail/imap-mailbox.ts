/**
 * What the parts of the IMAP source (imap-source.ts) share: message ids made of the folder, its
 * UIDVALIDITY and the UID, the labels of each folder, and the searches and header fetches.
 */
import type { ImapFlow } from 'imapflow';
import { headerFields } from './imap-threads';
import { THREAD_HEADERS } from './needs-reply';

/** UIDs fetched in one command. */
const FETCH_BATCH = 200;

/** The inbox, the sent folder, the drafts. */
export type Box = 'i' | 's' | 'd';
export const LABELS: Record<Box, string[]> = { i: ['INBOX'], s: ['SENT'], d: ['DRAFT'] };

export const idOf = (box: Box, validity: bigint | string, uid: number) => `${box}.${validity}.${uid}`;

export function parseId(id: string): { box: Box; validity: string; uid: number } | null {
  const [box, validity, uid] = id.split('.');
  if (
    (box !== 'i' && box !== 's' && box !== 'd') ||
    !/^\d+$/.test(validity ?? '') ||
    !/^\d+$/.test(uid ?? '')
  )
    return null;
  return { box, validity: validity!, uid: Number(uid) };
}

/** The headers that place a message in its thread, and those the triage reads of a thread. */
const ID_HEADERS = ['Message-ID', 'References', 'In-Reply-To'];
const LISTED_HEADERS = [...new Set([...THREAD_HEADERS, ...ID_HEADERS])];

export const sinceDays = (days: number) => new Date(Date.now() - days * 86_400_000);

/** The UIDs of a search (none when the server answers nothing). */
export const uidsOf = async (client: ImapFlow, query: Parameters<ImapFlow['search']>[0]) =>
  ((await client.search(query, { uid: true })) || []).sort((a, b) => a - b);

/** A message as a listing reads it: its UID, date, \Answered flag and listed headers. */
export interface ListedMessage {
  uid: number;
  date: number;
  answered: boolean;
  headers: Record<string, string>;
}

/** The listed headers of these UIDs, newest first. */
export async function headersOf(client: ImapFlow, uids: number[]): Promise<ListedMessage[]> {
  const found: ListedMessage[] = [];
  for (let i = 0; i < uids.length; i += FETCH_BATCH) {
    const range = uids.slice(i, i + FETCH_BATCH).join(',');
    for await (const m of client.fetch(
      range,
      { uid: true, internalDate: true, flags: true, headers: LISTED_HEADERS },
      { uid: true },
    ))
      found.push({
        uid: m.uid,
        date: m.internalDate ? new Date(m.internalDate).getTime() : 0,
        answered: m.flags?.has('\\Answered') ?? false,
        headers: headerFields(m.headers?.toString('utf8') ?? ''),
      });
  }
  return found.sort((a, b) => b.uid - a.uid);
}
