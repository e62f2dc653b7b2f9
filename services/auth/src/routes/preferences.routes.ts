import type { Router } from 'express';
import { preferencesContract } from '@haven/contracts/preferences';
import { mountContract } from '@haven/kit/http';
import type { ServiceDeps } from '@haven/kit/service';
import { changePreferences, readPreferences } from '../domain/preferences';

export function preferencesRoutes(router: Router, { db }: ServiceDeps): void {
  mountContract(router, preferencesContract, {
    get: ({ userId }) => readPreferences({ db, userId }),
    update: ({ userId, body }) => changePreferences({ db, userId, patch: body }),
  });
}
