import type { Config } from '@haven/kit/config';
import type { FieldCipher } from '@haven/kit/crypto';
import type { IntegrationRow } from '../db/integrations.repository';
import type { Accounts } from './accounts';
import { caldavSource } from './calendar/caldav-source';
import { googleCalendarSource } from './calendar/google-source';
import { graphCalendarSource } from './calendar/graph-source';
import type { CalendarSourceOf } from './calendar/source';
import { calendarOf, gmailOf } from './google';
import { gmailSource } from './mail/gmail-source';
import { graphMailSource } from './mail/graph-source';
import { imapSource } from './mail/imap-source';
import type { sandboxedMailParser, sandboxedRawMailParser } from './mail/mail-parser';
import { calendarServerAccountOf, reachableOnly, serverAccountOf } from './mail/server-accounts';
import type { MailSourceOf } from './mail/source';
import { MAIL_WINDOW_DAYS } from './mail/sync';
import { graphClient } from './microsoft';

export interface AdapterDeps {
  config: Config;
  cipher: FieldCipher;
  accounts: Accounts;
  parseMail: ReturnType<typeof sandboxedMailParser>;
  parseRawMail: ReturnType<typeof sandboxedRawMailParser>;
}

/**
 * Each provider's adapter, chosen by the account's provider: the one place a next provider's
 * mail and calendar sources are added.
 */
export function providerAdapters({ config, cipher, accounts, parseMail, parseRawMail }: AdapterDeps) {
  const graphOf = (row: IntegrationRow) => graphClient(config, accounts.microsoftAccess(row));
  const gmailFor = (row: IntegrationRow) => gmailOf(accounts.authorised(row), config.GOOGLE_API_ROOT_URL);
  const mailSourceOf: MailSourceOf = (row) => {
    if (row.provider === 'imap')
      return imapSource(serverAccountOf(row, cipher), parseRawMail, {
        windowDays: MAIL_WINDOW_DAYS,
        allowPrivate: config.MAIL_SERVERS_ALLOW_PRIVATE,
      });
    if (row.provider === 'microsoft') return graphMailSource(graphOf(row), parseRawMail);
    return gmailSource(gmailFor(row), parseMail);
  };
  const calendarSourceOf: CalendarSourceOf = (row) => {
    if (row.provider === 'caldav') {
      const account = calendarServerAccountOf(row, cipher);
      return reachableOnly(caldavSource(account), account.url, config.MAIL_SERVERS_ALLOW_PRIVATE);
    }
    if (row.provider === 'microsoft') return graphCalendarSource(graphOf(row));
    return googleCalendarSource(calendarOf(accounts.authorised(row), config.GOOGLE_API_ROOT_URL));
  };
  return { graphOf, gmailFor, mailSourceOf, calendarSourceOf };
}
