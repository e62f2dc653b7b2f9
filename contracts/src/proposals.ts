import { z } from 'zod';

/*
 * What an assistant reply proposes (e-mail drafts, calendar events) and how far it can be trusted,
 * stored in the reply's `metadata` and read by the SPA. The assistant never acts on a proposal; the
 * user does, and these fields decide how the SPA offers it.
 */

/**
 * Where a draft's recipient was found. `question` (the user's own words, or the sender of a mail the
 * user's question names), `calendar` (an invitation's organizer) and `contact` (someone the user
 * wrote to from a connected mail account) are people the user knows;
 * every other origin is shown with a notice and never prefilled.
 */
export const RecipientOrigin = z.enum([
  'question',
  'calendar',
  'contact',
  'mail',
  'slack',
  'notion',
  'thoughts',
  'unknown',
]);
export type RecipientOrigin = z.infer<typeof RecipientOrigin>;

export const DraftProposal = z.object({
  to: z.string().optional(),
  subject: z.string(),
  body: z.string(),
  /** The user's question asked for nothing to be written: the SPA shows it under 'Suggested'. */
  unrequested: z.boolean().optional(),
  recipientFrom: RecipientOrigin.optional(),
  /** Sentences quoting the user's journal were left out (the question did not ask to include them). */
  journalLeftOut: z.boolean().optional(),
});
export type DraftProposal = z.infer<typeof DraftProposal>;

export const EventProposal = z.object({
  title: z.string(),
  start: z.object({ date: z.string(), time: z.string() }),
  end: z.object({ date: z.string(), time: z.string() }),
  location: z.string().optional(),
  unrequested: z.boolean().optional(),
});
export type EventProposal = z.infer<typeof EventProposal>;

/** The parts of a reply's metadata the SPA reads; anything else in it is ignored. */
export const ReplyProposals = z.object({
  drafts: z.array(DraftProposal).optional(),
  events: z.array(EventProposal).optional(),
  /** Addresses in what the reply's tools read (the user's own data): links to their hosts open directly. */
  seenLinks: z.array(z.string()).optional(),
});
export type ReplyProposals = z.infer<typeof ReplyProposals>;

const NOTICES: Record<RecipientOrigin, string | null> = {
  question: null,
  calendar: null,
  contact: null,
  mail: 'This address comes from an e-mail you received.',
  slack: 'This address comes from a Slack message.',
  notion: 'This address comes from a Notion page.',
  thoughts: 'This address comes from your journal.',
  unknown: 'This address is not in your question, your mail or your calendar.',
};

/** What the SPA says about a draft's recipient; null when the user knows them. */
export const recipientNotice = (origin: RecipientOrigin | undefined): string | null =>
  origin ? NOTICES[origin] : null;
