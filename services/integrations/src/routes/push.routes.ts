import { pushContract } from '@haven/contracts/push';
import { implement, reply } from '@haven/kit/http';
import type { Push } from '../domain/push/push';

/** The providers' push notifications: each asks for a sync of the account it names. */
export function pushRoutes(push: Push) {
  return implement(pushContract, {
    google: async ({ query, body }) => {
      await push.gmailNotified(query.token, body);
      return reply(204, null);
    },
    microsoft: async ({ query, body, res }) => {
      // Graph checks a new subscription's address: the token back, as text, within 10 seconds.
      if (query.validationToken !== undefined) {
        res.status(200).type('text/plain').send(query.validationToken);
        return reply(200, query.validationToken);
      }
      await push.graphNotified(body);
      return reply(202, null);
    },
  });
}
