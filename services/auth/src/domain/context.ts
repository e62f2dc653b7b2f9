import type { User } from '@haven/contracts/auth';
import type { Config } from '@haven/kit/config';
import type { FieldCipher } from '@haven/kit/crypto';
import type { Db } from '@haven/kit/db';
import type { Logger } from '@haven/kit/logger';
import type { SessionStore } from '@haven/kit/sessions';
import type { UnitOfWork } from '@haven/kit/unit-of-work';
import type { UserRow } from '../db/users.repository';

/** What the account flows need; built once by the service's composition root. */
export interface AuthContext {
  db: Db;
  uow: UnitOfWork;
  config: Config;
  cipher: FieldCipher;
  sessions: SessionStore;
  /** HMAC key of verification codes, derived from JWT_SECRET for this purpose only. */
  codeKey: Buffer;
  log: Logger;
}

/** How long an e-mailed code or link stays valid. */
export const CODE_TTL_MINUTES = 15;
/** Wrong codes allowed before the registration locks until a resend. */
export const MAX_CODE_ATTEMPTS = 5;
/** How long a password reset link stays valid. */
export const RESET_TTL_MINUTES = 60;

export { appUrl } from '@haven/kit/config';

/** Presenter: the fields of a user that may leave the service (never the password hash). */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    isEmailVerified: row.isEmailVerified,
  };
}
