import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@haven/kit/db';
import { users } from './schema';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row;
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Which of e-mail and username already belong to an account (usernames compare case-blind). */
export async function findAccountConflicts(db: DbOrTx, email: string, username: string) {
  const rows = await db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(sql`${users.email} = ${email} or lower(${users.username}) = lower(${username})`);
  return {
    email: rows.some((r) => r.email === email),
    username: rows.some((r) => r.username.toLowerCase() === username.toLowerCase()),
  };
}

export async function insertUser(
  db: DbOrTx,
  values: { username: string; name: string | null; email: string; passwordHash: string },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...values, isEmailVerified: true })
    .returning();
  return row!;
}

export async function setPasswordHash(db: DbOrTx, userId: number, passwordHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

export async function deleteUser(db: DbOrTx, id: number): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}
