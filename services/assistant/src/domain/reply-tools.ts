import { linksIn } from '@haven/contracts/link-policy';
import type { ToolSpec } from '@haven/kit/llm';
import {
  CALENDAR_INVITATIONS,
  EMAIL_DIGEST,
  LIST_WAITING_FOR_ANSWER,
  SEARCH_NOTION,
  SLACK_MENTIONS,
} from './account-tools';
import type { FoundEntry } from './find-entries';
import type { SeenItem } from './proposals';
import type { ReplyInput, ReplySources } from './reply-types';
import { SEARCH_THOUGHTS, THOUGHTS_ON } from './thought-tools';
import { DraftArgs, EventArgs, tool, type Offer, type Tool, type ToolContext } from './tool-kit';
import { envelope, type ToolSource } from './tool-results';

/*
 * The tools a model may call in a reply, each listed once in TOOLS under its name: its description,
 * what it reads (its source), when it is offered, its zod parameters and its runner (the reading
 * tools are in thought-tools.ts and account-tools.ts). The specs the model is offered, the sources
 * and the dispatch all come from that one table. The runner of one reply runs them for one user and
 * keeps what they read (to judge the reply's proposals and links against), what they proposed and
 * the entries they cited. Reading tools answer in the untrusted-data envelope (see tool-results.ts).
 */

/** The tool's answer when the question did not need what it reads (see `aiReply`). */
export const NOT_NEEDED = JSON.stringify({
  source: 'haven',
  status: "Not run: the user's question does not ask for this.",
});

async function draftEmail(a: DraftArgs, ctx: ToolContext): Promise<string> {
  ctx.drafts.push(a);
  return JSON.stringify({
    source: 'haven',
    status: 'Draft ready for the user to review. Nothing was sent.',
  });
}

async function proposeEvent(a: EventArgs, ctx: ToolContext): Promise<string> {
  ctx.events.push(a);
  return JSON.stringify({
    source: 'haven',
    status: 'Event proposed for the user to review. Nothing was created.',
  });
}

/** The name of each tool a model may call. */
export type ToolName =
  | 'search_thoughts'
  | 'thoughts_on'
  | 'email_digest'
  | 'list_waiting_for_answer'
  | 'calendar_invitations'
  | 'slack_mentions'
  | 'search_notion'
  | 'draft_email'
  | 'propose_event';

/** Every tool, by the name the model calls it by (a name without its tool does not compile), in the order offered. */
export const TOOLS: { readonly [N in ToolName]: Tool } = {
  search_thoughts: SEARCH_THOUGHTS,
  thoughts_on: THOUGHTS_ON,
  email_digest: EMAIL_DIGEST,
  list_waiting_for_answer: LIST_WAITING_FOR_ANSWER,
  calendar_invitations: CALENDAR_INVITATIONS,
  slack_mentions: SLACK_MENTIONS,
  search_notion: SEARCH_NOTION,
  draft_email: tool({
    description: 'Prepares an e-mail draft for the user to review and send themselves. It sends nothing.',
    parameters: DraftArgs,
    run: draftEmail,
  }),
  propose_event: tool({
    description: 'Proposes a calendar event for the user to review and add themselves. It creates nothing.',
    parameters: EventArgs,
    run: proposeEvent,
  }),
};

/** A Map, not the object itself: a name the model makes up ('constructor') finds no tool. */
const BY_NAME = new Map<string, Tool>(Object.entries(TOOLS));

/** The specs of the tools offered in a reply, in TOOLS' order. */
export const offeredTools = (offer: Offer): ToolSpec[] =>
  [...BY_NAME]
    .filter(([, t]) => t.offered?.(offer) ?? true)
    .map(([name, { description, parameters }]) => ({ name, description, parameters }));

/** What a tool reads (undefined for proposing tools and unknown names). */
export const sourceOf = (name: string): ToolSource | undefined => BY_NAME.get(name)?.source;

/** What the tools of one reply read, proposed and cited. */
interface Records {
  drafts: DraftArgs[];
  events: EventArgs[];
  /** What the tools read, to judge the proposals against. */
  seen: SeenItem[];
  seenLinks: Set<string>;
  /** The thoughts the tools handed to the model, in order: chip #n is references[n - 1]. */
  references: number[];
}

/** The chip numbers of `entries`, each thought numbered once, in the order first cited. */
function cite(references: number[], entries: FoundEntry[]): number[] {
  return entries.map((e) => {
    const at = references.indexOf(e.thought.id);
    if (at >= 0) return at + 1;
    references.push(e.thought.id);
    return references.length;
  });
}

/** What the tool `name` may use while it runs, its reads kept in `records`. */
function toolContext(
  name: string,
  source: ToolSource | undefined,
  reply: { sources: ReplySources; input: ReplyInput; records: Records; onCalendarRead: () => void },
): ToolContext {
  const { records } = reply;
  return {
    sources: reply.sources,
    input: reply.input,
    read(items, seenOf, extra) {
      const wrapped = envelope(name, source!, items, extra);
      for (const item of wrapped.items) {
        const kept = { source: source!, ...seenOf(item) };
        records.seen.push(kept);
        for (const link of linksIn(kept.text)) records.seenLinks.add(link);
      }
      return wrapped.text;
    },
    notConnected: () => JSON.stringify({ source, tool: name, connected: false }),
    cite: (entries) => cite(records.references, entries),
    drafts: records.drafts,
    events: records.events,
    calendarRead: reply.onCalendarRead,
  };
}

/** Runs the tools of one reply and keeps what they read, proposed and cited. */
export function createToolRunner(sources: ReplySources, input: ReplyInput) {
  const used = new Set<string>();
  let calendarRead = false;
  const records: Records = { drafts: [], events: [], seen: [], seenLinks: new Set(), references: [] };
  const onCalendarRead = () => {
    calendarRead = true;
  };

  async function run(name: string, args: unknown): Promise<string> {
    used.add(name);
    const found = BY_NAME.get(name);
    if (!found) return JSON.stringify({ source: 'haven', error: `No tool named ${name}` });
    const ctx = toolContext(name, found.source, { sources, input, records, onCalendarRead });
    return found.run(found.parameters.parse(args), ctx);
  }

  return {
    run,
    /** The tools that ran. */
    used,
    /** What the reading tools read, and the links in it. */
    seen: records.seen,
    seenLinks: records.seenLinks,
    drafts: records.drafts,
    events: records.events,
    references: records.references,
    /** The 'Calendar integration used' badge: a connected calendar was read (a proposed event is not). */
    calendarRead: () => calendarRead,
  };
}
