import { insightsContract } from '@haven/contracts/insights';
import { insightsInternalContract } from '@haven/contracts/internal';
import { AppError } from '@haven/kit/errors';
import { insightsPortabilityContract } from '@haven/contracts/portability';
import { implement, reply } from '@haven/kit/http';
import type { Insights } from '../domain/insights';
import { findingsOf } from '../domain/engine/findings';

export function insightsRoutes(insights: Insights) {
  return implement(insightsContract, {
    get: async ({ userId, query }) => {
      const found = await insights.get(userId, query);
      return found.status === 'pending' ? reply(202, { status: 'pending' as const }) : found.insight;
    },
    remove: ({ userId, query }) => insights.remove(userId, query),
    // Computed from the text sent, for no one else's data: nothing to check beyond the signed-in user.
    findings: ({ body }) => ({ findings: findingsOf(body.thoughts) }),
  });
}

/** The insights part of the user's export (portability's export calls it). */
export function portabilityRoutes(insights: Insights) {
  return implement(insightsPortabilityContract, {
    exportInsights: ({ userId }) => insights.exportAll(userId),
  });
}

/** The insight of a period for the assistant's weekly review; too few thoughts is an answer, not an error. */
export function internalRoutes(insights: Insights) {
  return implement(insightsInternalContract, {
    period: async ({ userId, query }) => {
      try {
        return await insights.get(userId, query);
      } catch (err) {
        if (err instanceof AppError && err.status === 404) return { status: 'empty' as const };
        throw err;
      }
    },
  });
}
