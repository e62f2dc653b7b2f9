/** What the parts of the Graph mail source (graph-source.ts) share: the client, its pace, its pages. */
import type { GraphClient } from '../microsoft';

/** Messages per page of a listing or a delta round. */
export const PAGE = 100;

/** What a listing reads of each message. */
export const REF_FIELDS = 'id,conversationId';

export type Folder = 'inbox' | 'sentitems' | 'drafts';

export interface Page<T> {
  value?: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/** The Graph client, and `call`, which runs a request within the source's bound on parallel ones. */
export interface GraphMail {
  client: GraphClient;
  call: <T>(request: () => Promise<T>) => Promise<T>;
}
