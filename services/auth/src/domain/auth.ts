import type { RequestVerificationBody } from '@haven/contracts/auth';
import type { JobPayload } from '@haven/contracts/jobs';
import type { PreferencesPatch } from '@haven/contracts/preferences';
import type { MailTransport } from '../mail/transport';
import type { AuthContext } from './context';
import { deleteAccount, recordDeletion, unfinishedDeletions } from './account-deletion';
import { deliverMail } from './mail';
import { forgotPassword, resetPassword } from './password-reset';
import { changePreferences, readPreferences } from './preferences';
import { requestVerification, resendVerification, verifyWithCode, verifyWithLink } from './registration';
import { checkCredentials, currentUser } from './sign-in';

/**
 * The auth domain, built once by the composition root and used by the routes and the mail job
 * alike. Each flow checks its own preconditions and knows nothing of HTTP.
 */
export function createAuth(ctx: AuthContext, transport: MailTransport) {
  return {
    sessions: ctx.sessions,
    currentUser: (userId: number) => currentUser(ctx, userId),
    checkCredentials: (email: string, password: string) => checkCredentials(ctx, email, password),
    requestVerification: (input: RequestVerificationBody) => requestVerification(ctx, input),
    verifyWithCode: (email: string, code: string) => verifyWithCode(ctx, email, code),
    verifyWithLink: (token: string) => verifyWithLink(ctx, token),
    resendVerification: (email: string) => resendVerification(ctx, email),
    forgotPassword: (email: string) => forgotPassword(ctx, email),
    resetPassword: (token: string, password: string) => resetPassword(ctx, token, password),
    preferences: (userId: number) => readPreferences({ db: ctx.db, userId }),
    changePreferences: (userId: number, patch: PreferencesPatch) =>
      changePreferences({ db: ctx.db, userId, patch }),
    deliverMail: (mailId: string) => deliverMail(ctx, transport, mailId),
    deleteAccount: (userId: number, password: string) => deleteAccount(ctx, userId, password),
    recordDeletion: (report: JobPayload<'user.deletion.report'>) => recordDeletion(ctx, report),
    unfinishedDeletions: (minutes: number) => unfinishedDeletions(ctx.db, minutes),
  };
}
export type Auth = ReturnType<typeof createAuth>;
