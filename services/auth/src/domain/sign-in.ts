import type { User } from '@haven/contracts/auth';
import { unauthorized } from '@haven/kit/errors';
import { findUserByEmail, findUserById } from '../db/users.repository';
import { presentUser, type AuthContext } from './context';
import { isBeingDeleted } from './account-deletion';
import { verifyAgainstDecoy, verifyPassword } from './secrets';

export const INVALID_CREDENTIALS = 'Invalid email or password';

/**
 * Checks e-mail and password. A wrong password, an unknown e-mail and an unverified registration
 * all get the same 401, after the same amount of hashing work.
 */
export async function checkCredentials(ctx: AuthContext, email: string, password: string): Promise<User> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) {
    await verifyAgainstDecoy(password);
    throw unauthorized(INVALID_CREDENTIALS);
  }
  if (!(await verifyPassword(user.passwordHash, password)) || !user.isEmailVerified)
    throw unauthorized(INVALID_CREDENTIALS);
  // An account being deleted is as good as gone.
  if (await isBeingDeleted(ctx.db, user.id)) throw unauthorized(INVALID_CREDENTIALS);
  return presentUser(user);
}

/** The signed-in user; a session whose account is gone is treated as signed out. */
export async function currentUser(ctx: AuthContext, userId: number): Promise<User> {
  const user = await findUserById(ctx.db, userId);
  if (!user || (await isBeingDeleted(ctx.db, userId))) throw unauthorized();
  return presentUser(user);
}
