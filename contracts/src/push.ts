import { z } from 'zod';
import { defineContract } from './contract';
import { ErrorBody } from './errors';

/*
 * The providers' push notifications: servers, not browsers, call these public routes. What they
 * carry only asks for a sync of the account named; nothing in them is trusted beyond that.
 */

/**
 * POST /api/push/google?token=: a Pub/Sub push subscription delivering Gmail's `users.watch`
 * notifications. `message.data` is base64 JSON `{ emailAddress, historyId }`; the token is the
 * secret the subscription's endpoint URL carries (GMAIL_PUSH_TOKEN).
 */
export const PubSubPushBody = z.object({
  message: z.object({
    data: z.string().max(4096),
    messageId: z.string().max(256).optional(),
    publishTime: z.string().max(64).optional(),
    attributes: z.record(z.string(), z.string().max(1024)).optional(),
  }),
  subscription: z.string().max(512),
});
export type PubSubPushBody = z.infer<typeof PubSubPushBody>;

/** What Gmail publishes: the mailbox that changed and its history id then. */
export const GmailPushData = z.object({
  emailAddress: z.string().min(3).max(320),
  historyId: z.union([z.string().max(32), z.number()]),
});
export type GmailPushData = z.infer<typeof GmailPushData>;

export const PushTokenQuery = z.object({
  token: z.string().max(256).optional(),
});

/**
 * One change notification (or lifecycle notification) of Microsoft Graph, as its reference gives it.
 * Only the subscription, its client state and a lifecycle event are read.
 */
export const GraphNotification = z.object({
  subscriptionId: z.string().min(1).max(128),
  clientState: z.string().max(255).nullish(),
  changeType: z.string().max(64).optional(),
  lifecycleEvent: z.string().max(64).optional(),
  resource: z.string().max(2048).optional(),
});
export type GraphNotification = z.infer<typeof GraphNotification>;

/**
 * POST /api/push/microsoft: Graph's notifications, batched in `value`; or, when a subscription is
 * created, its validation request (`?validationToken=`, no body), answered with the token as text.
 */
export const GraphNotificationsBody = z.object({
  value: z.array(GraphNotification).max(1000).default([]),
});
export type GraphNotificationsBody = z.infer<typeof GraphNotificationsBody>;

export const GraphValidationQuery = z.object({
  validationToken: z.string().max(1024).optional(),
});

/** Routes the mail and calendar providers call when an account changes. */
export const pushContract = defineContract({
  google: {
    method: 'POST',
    path: '/api/push/google',
    query: PushTokenQuery,
    body: PubSubPushBody,
    responses: { 204: z.null(), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
    summary:
      "Gmail's push through a Pub/Sub push subscription: asks for a sync of the mailbox named. 204 " +
      'acknowledges (also for a mailbox no account here watches); 403 for a wrong token; 404 when ' +
      'Gmail push is not configured here.',
  },
  microsoft: {
    method: 'POST',
    path: '/api/push/microsoft',
    query: GraphValidationQuery,
    body: GraphNotificationsBody,
    responses: { 200: z.string(), 202: z.null(), 400: ErrorBody },
    summary:
      "Microsoft Graph's change and lifecycle notifications: each asks for a sync of the account " +
      'whose subscription and client state it names (others are ignored); 202 acknowledges. A ' +
      'validation request is answered 200 with its token as text/plain.',
  },
});
