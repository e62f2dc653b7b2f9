import type { Router } from 'express';
import { thoughtsInternalContract } from '@haven/contracts/internal';
import { thoughtsContract } from '@haven/contracts/thoughts';
import { mountContract, reply } from '@haven/kit/http';
import type { Llm } from '@haven/kit/llm';
import type { ServiceDeps } from '@haven/kit/service';
import { classifyEntry } from '../domain/classify';
import {
  allThoughts,
  createThought,
  deleteThought,
  searchThoughts,
  thoughtsByIds,
  thoughtsInRange,
  thoughtsOfDay,
  updateThought,
  type ThoughtsContext,
} from '../domain/thoughts';

export function thoughtsRoutes(router: Router, deps: ServiceDeps, llm: Llm | null): void {
  const ctx: ThoughtsContext = {
    db: deps.db,
    cipher: deps.cipher,
    canTranscribe: llm !== null,
    kickOutbox: () => deps.outbox?.kick(),
  };

  mountContract(router, thoughtsContract, {
    byDay: ({ userId, query }) => thoughtsOfDay(ctx, userId, query.date),
    range: ({ userId, query }) => thoughtsInRange(ctx, userId, query),
    byIds: ({ userId, query }) => thoughtsByIds(ctx, userId, query.ids),
    all: ({ userId }) => allThoughts(ctx, userId),
    create: async ({ userId, body }) => reply(201, await createThought(ctx, userId, body)),
    update: ({ userId, params, body }) => updateThought(ctx, userId, params.id, body),
    remove: ({ userId, params }) => deleteThought(ctx, userId, params.id),
    analyzeContent: async ({ body }) => ({ type: await classifyEntry(body.text, llm, deps.log) }),
  });

  mountContract(router, thoughtsInternalContract, {
    range: ({ userId, query }) => thoughtsInRange(ctx, userId, query),
    search: ({ userId, query }) => searchThoughts(ctx, userId, query.q, query.limit),
  });
}
