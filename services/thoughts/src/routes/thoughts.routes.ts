import { thoughtsInternalContract } from '@haven/contracts/internal';
import { thoughtsPortabilityContract } from '@haven/contracts/portability';
import type { Portability } from '../domain/portability';
import { thoughtsContract } from '@haven/contracts/thoughts';
import { implement, reply } from '@haven/kit/http';
import { sendJsonArray } from '@haven/kit/json-stream';
import type { Search } from '../domain/search/search';
import type { Thoughts } from '../domain/thoughts';
import { sendAudio } from './audio';

export function thoughtsRoutes(thoughts: Thoughts, search: Search) {
  return implement(thoughtsContract, {
    byDay: ({ userId, query }) => thoughts.ofDay(userId, query.date),
    range: ({ userId, query }) => thoughts.inRange(userId, query),
    byIds: ({ userId, query }) => thoughts.byIds(userId, query.ids),
    all: ({ userId, res }) => sendJsonArray(res, thoughts.all(userId)),
    search: ({ userId, query }) => search.page(userId, query),
    related: ({ userId, params, query }) => search.related(userId, params.id, query.limit),
    onThisDay: ({ userId, query }) => search.onThisDay(userId, query.date),
    tags: ({ userId }) => thoughts.tagCounts(userId),
    create: async ({ userId, body }) => reply(201, await thoughts.create(userId, body)),
    update: ({ userId, params, body }) => thoughts.update(userId, params.id, body),
    remove: ({ userId, params }) => thoughts.remove(userId, params.id),
    audio: async ({ userId, params, req, res }) => {
      sendAudio(req, res, await thoughts.audio(userId, params.id));
      return null;
    },
    analyzeContent: async ({ body }) => ({ type: await thoughts.classify(body.text) }),
  });
}

/** Reads for the insights and assistant services (the contract lists them as the only callers). */
export function internalRoutes(thoughts: Thoughts, search: Search) {
  return implement(thoughtsInternalContract, {
    range: ({ userId, query }) => thoughts.inRange(userId, query),
    stats: ({ userId, query }) => thoughts.stats(userId, query),
    search: ({ userId, query }) => search.internal(userId, query),
  });
}

/** The thoughts part of the user's export and import (the portability service calls these). */
export function portabilityRoutes(portability: Portability) {
  return implement(thoughtsPortabilityContract, {
    exportThoughts: ({ userId, query }) => portability.exportPage(userId, query),
    importThoughts: ({ userId, body }) => portability.importBatch(userId, body.items),
  });
}
