import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineContract } from '@haven/contracts/contract';
import { answerProblems } from './answer-check';
import { implement, redirect, reply } from './http';

const User = z.object({ id: z.number(), name: z.string(), tags: z.array(z.object({ label: z.string() })) });
const contract = defineContract({
  get: { method: 'GET', path: '/api/x', responses: { 200: User, 404: z.object({ message: z.string() }) } },
  make: { method: 'POST', path: '/api/x', responses: { 201: User } },
  go: { method: 'GET', path: '/api/go', responses: { 302: z.null() } },
});
const row = { id: 1, name: 'a', tags: [{ label: 't' }], passwordHash: 'secret' };
const exact = { id: 1, name: 'a', tags: [{ label: 't' }] };

describe('typed answers', () => {
  it('compiles answers that match the contract', () => {
    const routes = implement(contract, {
      get: async () => (Math.random() > 2 ? reply(404, { message: 'gone' }) : exact),
      make: () => reply(201, exact),
      go: () => redirect('/elsewhere'),
    });
    expect(Object.keys(routes.handlers)).toEqual(['get', 'make', 'go']);
  });

  // eslint-disable-next-line vitest/expect-expect -- asserted by the type check: each @ts-expect-error fails `npm run typecheck` once the error it expects is gone
  it('refuses, at compile time, a raw row, a nested extra field and an undeclared status', () => {
    implement(contract, {
      // @ts-expect-error passwordHash is not in the contract
      get: () => row,
      make: () => reply(201, exact),
      go: () => redirect('/elsewhere'),
    });
    implement(contract, {
      get: () => exact,
      // @ts-expect-error tags[].secret is not in the contract
      make: () => reply(201, { ...exact, tags: [{ label: 't', secret: 1 }] }),
      go: () => redirect('/elsewhere'),
    });
    implement(contract, {
      get: () => exact,
      // @ts-expect-error 200 is not a status this route declares
      make: () => exact,
      go: () => redirect('/elsewhere'),
    });
  });

  it('finds, at run time, what does not parse and what the contract does not declare', () => {
    expect(answerProblems(User, exact)).toEqual([]);
    expect(answerProblems(User, row)).toEqual(['passwordHash: not declared in the contract']);
    expect(answerProblems(z.array(User), [{ ...exact, tags: [{ label: 'x', extra: true }] }])).toEqual([
      '[0].tags[0].extra: not declared in the contract',
    ]);
    expect(answerProblems(User, { id: 'x', name: 'a', tags: [] })[0]).toMatch(/^id: /);
  });
});
