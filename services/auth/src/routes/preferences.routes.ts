import { authInternalContract } from '@haven/contracts/internal';
import { preferencesContract } from '@haven/contracts/preferences';
import { implement } from '@haven/kit/http';
import type { Auth } from '../domain/auth';

export function preferencesRoutes(auth: Auth) {
  return implement(preferencesContract, {
    get: ({ userId }) => auth.preferences(userId),
    update: ({ userId, body }) => auth.changePreferences(userId, body),
  });
}

/** The preferences other services read (insights and the assistant honour includeThoughtContent). */
export function internalRoutes(auth: Auth) {
  return implement(authInternalContract, {
    preferences: ({ userId }) => auth.preferences(userId),
  });
}
