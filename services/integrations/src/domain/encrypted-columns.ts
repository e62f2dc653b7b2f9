import type { EncryptedColumn } from '@haven/kit/reencrypt';
import {
  accountContext,
  eventContext,
  itemContext,
  mailContext,
  rulesContext,
  tokenContext,
} from './contexts';

const of = (table: string, column: string, context: (userId: number) => string): EncryptedColumn => ({
  schema: 'integrations',
  table,
  column,
  key: ['id'],
  uses: ['user_id'],
  context: (r) => context(Number(r.user_id)),
});

/** The integrations' encrypted values (tokens, rules, cached mail and events), for the re-encryption pass. */
export const ENCRYPTED_COLUMNS: EncryptedColumn[] = [
  of('integrations', 'access_token_enc', tokenContext),
  of('integrations', 'refresh_token_enc', tokenContext),
  of('integrations', 'contextual_rules_enc', rulesContext),
  of('integrations', 'account_enc', accountContext),
  of('mail_messages', 'data_enc', mailContext),
  of('mail_messages', 'body_enc', mailContext),
  of('mail_follow_ups', 'data_enc', mailContext),
  of('calendar_events', 'data_enc', eventContext),
  of('provider_items', 'data_enc', itemContext),
];
