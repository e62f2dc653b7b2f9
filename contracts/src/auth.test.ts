import { describe, expect, it } from 'vitest';
import {
  LoginBody,
  RegisterForm,
  RequestVerificationBody,
  ResetPasswordForm,
  User,
  VerifyEmailBody,
} from './auth';

const messages = (r: { error?: { issues: { message: string }[] } }) =>
  r.error?.issues.map((i) => i.message) ?? [];

const registration = {
  username: 'ada_l',
  email: ' Ada@Example.COM ',
  password: 'secret1',
};

describe('LoginBody', () => {
  it('uses the spec messages', () => {
    const r = LoginBody.safeParse({ email: 'nope', password: '12345' });
    expect(messages(r)).toEqual([
      'Please enter a valid email address',
      'Password must be at least 6 characters',
    ]);
  });

  it('normalises the e-mail', () => {
    expect(LoginBody.parse({ email: ' Ada@Example.COM', password: 'secret1' }).email).toBe('ada@example.com');
  });

  it('limits lengths', () => {
    expect(LoginBody.safeParse({ email: `${'a'.repeat(250)}@x.io`, password: 'secret1' }).success).toBe(
      false,
    );
    expect(LoginBody.safeParse({ email: 'a@x.io', password: 'p'.repeat(201) }).success).toBe(false);
  });
});

describe('RequestVerificationBody', () => {
  it('defaults isEmailVerified to false and drops a blank name', () => {
    const body = RequestVerificationBody.parse({ ...registration, name: '  ' });
    expect(body).toEqual({
      username: 'ada_l',
      email: 'ada@example.com',
      password: 'secret1',
      isEmailVerified: false,
    });
  });

  it('checks the username', () => {
    expect(messages(RequestVerificationBody.safeParse({ ...registration, username: 'ab' }))).toEqual([
      'Username must be at least 3 characters',
    ]);
    expect(RequestVerificationBody.safeParse({ ...registration, username: 'ada lovelace' }).success).toBe(
      false,
    );
    expect(RequestVerificationBody.safeParse({ ...registration, username: '<script>' }).success).toBe(false);
    expect(RequestVerificationBody.safeParse({ ...registration, username: 'a'.repeat(41) }).success).toBe(
      false,
    );
  });
});

describe('VerifyEmailBody', () => {
  it('accepts a token or an email with a 6-digit code', () => {
    expect(VerifyEmailBody.parse({ token: 'abc' })).toEqual({ token: 'abc' });
    expect(VerifyEmailBody.parse({ email: 'a@x.io', code: '123456' })).toEqual({
      email: 'a@x.io',
      code: '123456',
    });
  });

  it('reports the code length messages', () => {
    expect(messages(VerifyEmailBody.safeParse({ email: 'a@x.io', code: '12345' }))).toEqual([
      'Verification code must be at least 6 digits',
    ]);
    expect(messages(VerifyEmailBody.safeParse({ email: 'a@x.io', code: '1234567' }))).toEqual([
      'Verification code cannot exceed 6 digits',
    ]);
  });

  it('refuses non-digits', () => {
    expect(messages(VerifyEmailBody.safeParse({ email: 'a@x.io', code: '12a456' }))).toEqual([
      'Verification code must contain digits only',
    ]);
  });
});

describe('forms', () => {
  it('RegisterForm reports a mismatched confirmation on confirmPassword', () => {
    const r = RegisterForm.safeParse({ ...registration, confirmPassword: 'secret2' });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toEqual([
      expect.objectContaining({ message: 'Passwords do not match', path: ['confirmPassword'] }),
    ]);
    expect(RegisterForm.safeParse({ ...registration, confirmPassword: 'secret1' }).success).toBe(true);
  });

  it('ResetPasswordForm uses its own wording', () => {
    expect(
      messages(ResetPasswordForm.safeParse({ password: 'secret1', confirmPassword: 'secret2' })),
    ).toEqual(["Passwords don't match"]);
  });
});

describe('User', () => {
  it('strips anything that is not public', () => {
    const row = {
      id: 1,
      username: 'ada',
      name: null,
      email: 'a@x.io',
      isEmailVerified: true,
      password: 'hash',
      resetPasswordToken: 'tok',
    };
    expect(Object.keys(User.parse(row)).sort()).toEqual([
      'email',
      'id',
      'isEmailVerified',
      'name',
      'username',
    ]);
  });
});

describe('NUL characters', () => {
  it('are refused in a registration name', async () => {
    const { RequestVerificationBody } = await import('./auth');
    const result = RequestVerificationBody.safeParse({
      username: 'someone',
      name: 'Some\u0000one',
      email: 'someone@example.com',
      password: 'correct horse',
    });
    expect(result.error?.issues.map((i) => i.message)).toEqual(['Text must not contain NUL characters']);
  });
});
