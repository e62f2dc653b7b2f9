/** The mail account a sync works for, as the sync's steps read it. */
export interface MailAccount {
  integrationId: number;
  userId: number;
  /** The account's own address (a full sync reads it from the profile and sets it here). */
  account: string;
  cursor: string | null;
  includeFullContent: boolean;
}
