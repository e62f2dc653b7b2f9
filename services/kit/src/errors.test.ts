import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeError } from './db-errors';
import { rateLimited, toAppError, unavailable, validationError } from './errors';

/** What pg raises when the server goes away, wrapped as Drizzle wraps it. */
function lostConnection(params: unknown[]) {
  const cause = Object.assign(new Error('Connection terminated unexpectedly'), {});
  return new DrizzleQueryError('insert into "auth"."users" ("email") values ($1)', params, cause);
}

describe('error mapping', () => {
  it('answers a lost database with 503 and Retry-After', () => {
    const error = toAppError(lostConnection(['someone@example.com']));
    expect(error).toMatchObject({ status: 503, code: 'unavailable' });
    expect(error?.retryAfter).toBeGreaterThan(0);
    const adminShutdown = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      severity: 'FATAL',
    });
    expect(toAppError(adminShutdown)?.status).toBe(503);
    expect(
      toAppError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))?.status,
    ).toBe(503);
  });

  it('keeps a ZodError that is not request validation a 500, never a 400 blaming the user', () => {
    const outboxPayloadError = z.object({ userId: z.number() }).safeParse({ userId: 'x' }).error!;
    expect(toAppError(outboxPayloadError)).toBeNull();
    expect(toAppError(validationError(outboxPayloadError, 'body'))).toMatchObject({ status: 400 });
    const uniqueViolation = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
      severity: 'ERROR',
    });
    expect(toAppError(uniqueViolation)).toBeNull();
  });

  it('carries Retry-After as a field of the error', () => {
    expect(rateLimited(42).retryAfter).toBe(42);
    expect(unavailable().toBody()).toEqual({
      message: 'Service temporarily unavailable. Please try again shortly.',
      code: 'unavailable',
    });
  });

  it('describes a failed query without its SQL or parameters', () => {
    const described = JSON.stringify(
      describeError(
        new DrizzleQueryError(
          'insert into "auth"."users" ("email", "password_hash") values ($1, $2)',
          ['someone@example.com', '$argon2id$v=19$secret'],
          Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
            code: '23505',
            severity: 'ERROR',
            table: 'users',
            constraint: 'users_email_key',
            detail: 'Key (email)=(someone@example.com) already exists.',
          }),
        ),
      ),
    );
    expect(described).not.toContain('someone@example.com');
    expect(described).not.toContain('argon2id');
    expect(described).not.toContain('insert into');
    expect(JSON.parse(described)).toEqual({
      type: 'DatabaseError',
      sqlState: '23505',
      table: 'users',
      constraint: 'users_email_key',
    });
  });
});
