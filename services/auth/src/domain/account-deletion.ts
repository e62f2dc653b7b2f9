import { USER_DATA_SERVICES, userDeleteQueue, type JobPayload } from '@haven/contracts/jobs';
import type { DbOrTx } from '@haven/kit/db';
import { badRequest, unauthorized } from '@haven/kit/errors';
import { purgeUserRows } from '@haven/kit/user-deletion';
import {
  findDeletion,
  findDeletionsRequestedBefore,
  insertDeletion,
  markServiceDone,
} from '../db/deletions.repository';
import { deleteUser, findUserById } from '../db/users.repository';
import type { AuthContext } from './context';
import { verifyPassword } from './secrets';

export const WRONG_PASSWORD = 'Password is incorrect';

/** Whether the account is being deleted (it cannot sign in meanwhile). */
export async function isBeingDeleted(db: DbOrTx, userId: number): Promise<boolean> {
  return (await findDeletion(db, userId)) !== undefined;
}

/**
 * Deletes an account once its owner confirmed with the password: every session is revoked at once,
 * and each service is asked (through the outbox, so none is forgotten) to delete all it holds of
 * the user. The account row goes last, when all have reported back.
 */
export async function deleteAccount(ctx: AuthContext, userId: number, password: string): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw unauthorized();
  if (!(await verifyPassword(user.passwordHash, password))) throw badRequest(WRONG_PASSWORD);
  await ctx.uow.run(async (tx, emit) => {
    await insertDeletion(tx, userId);
    for (const service of USER_DATA_SERVICES) await emit(userDeleteQueue(service), { userId });
  });
  await ctx.sessions.revokeAll(userId);
  ctx.log.info({ userId }, 'account deletion requested');
}

/**
 * A service reports the user's data gone. After the last report the account's own rows go: its
 * preferences, resets, the account and the deletion record. Idempotent.
 */
export async function recordDeletion(
  ctx: Pick<AuthContext, 'db' | 'uow' | 'log'>,
  { userId, service }: JobPayload<'user.deletion.report'>,
): Promise<void> {
  await ctx.uow.run(async (tx) => {
    const row = await markServiceDone(tx, userId, service);
    if (!row || !USER_DATA_SERVICES.every((s) => row.done.includes(s))) return;
    await purgeUserRows(tx, 'auth', userId);
    await deleteUser(tx, userId);
    ctx.log.info({ userId }, 'account deleted');
  });
}

/** Deletions still waiting for a service after `minutes`: its request is queued again (same job id). */
export async function unfinishedDeletions(db: DbOrTx, minutes: number) {
  const rows = await findDeletionsRequestedBefore(db, minutes);
  return rows.flatMap((row) =>
    USER_DATA_SERVICES.filter((s) => !row.done.includes(s)).map((service) => ({
      service,
      userId: row.userId,
    })),
  );
}
