import type { Message } from '@haven/contracts/assistant';
import { emailDraftIn, type EmailDraft } from '@haven/contracts/conversation-rules';
import {
  recipientNotice,
  ReplyProposals,
  type DraftProposal,
  type EventProposal,
} from '@haven/contracts/proposals';
import { CalendarPlus, Mail, ShieldAlert } from 'lucide-react';

import { Button } from '@/components/ui/button';

/** A draft as the dialog opens it, with what the user must know before sending it. */
export interface ProposedDraft extends EmailDraft {
  /** Why the recipient is not prefilled (see `recipientNotice`); null for someone the user knows. */
  notice: string | null;
  journalLeftOut: boolean;
}

const asDraft = (d: DraftProposal): ProposedDraft => ({
  to: d.to ?? '',
  subject: d.subject,
  body: d.body,
  notice: recipientNotice(d.recipientFrom),
  journalLeftOut: d.journalLeftOut === true,
});

/**
 * An assistant message's proposals: the draft it answers with (from its metadata, or for replies
 * without one, found in its text as the spec says), and what it only suggests.
 */
export function proposalsOf(message: Message): {
  draft: ProposedDraft | null;
  drafts: ProposedDraft[];
  events: EventProposal[];
} {
  const parsed = ReplyProposals.safeParse(message.metadata ?? {});
  const { drafts, events = [] } = parsed.success ? parsed.data : {};
  const suggestedEvents = events.filter((e) => e.unrequested);
  if (!drafts) {
    const found = emailDraftIn(message.content);
    return {
      draft: found && { ...found, notice: null, journalLeftOut: false },
      drafts: [],
      events: suggestedEvents,
    };
  }
  const answered = drafts.find((d) => !d.unrequested);
  return {
    draft: answered ? asDraft(answered) : null,
    drafts: drafts.filter((d) => d.unrequested).map(asDraft),
    events: suggestedEvents,
  };
}

/** What the user must know about a draft before it leaves: its recipient's origin, journal text left out. */
export function DraftNotes({ draft }: { draft: ProposedDraft }) {
  if (!draft.notice && !draft.journalLeftOut) return null;
  return (
    <div className="flex flex-col gap-1 text-xs">
      {draft.notice && (
        <p className="flex items-start gap-1.5 text-destructive">
          <ShieldAlert aria-hidden className="mt-px size-3.5 shrink-0" />
          <span>
            {draft.notice}
            <span className="block break-all font-medium">{draft.to}</span>
          </span>
        </p>
      )}
      {draft.journalLeftOut && (
        <p className="text-muted-foreground">Text from your journal was left out of this draft.</p>
      )}
    </div>
  );
}

const when = (e: EventProposal) => `${e.start.date} ${e.start.time}–${e.end.time}`;

/**
 * What a reply proposes that the user did not ask for: folded under 'Suggested', never the answer,
 * and a draft opens like any other (its recipient confirmed by hand when it is not someone known).
 */
export function Suggestions({
  drafts,
  events,
  onDraft,
}: {
  drafts: ProposedDraft[];
  events: EventProposal[];
  onDraft: (draft: ProposedDraft) => void;
}) {
  const count = drafts.length + events.length;
  if (count === 0) return null;
  return (
    <details className="w-[85%] rounded-xl border border-border bg-card px-3 py-2 text-sm text-card-foreground">
      <summary className="cursor-pointer select-none font-medium text-muted-foreground">
        Suggested ({count})
      </summary>
      <ul className="mt-2 flex flex-col gap-3">
        {drafts.map((d, i) => (
          <li key={`d${i}`} className="flex flex-col gap-1.5">
            <p className="flex items-center gap-1.5 font-medium">
              <Mail aria-hidden className="size-4 shrink-0" /> {d.subject || 'E-mail draft'}
            </p>
            {d.to && !d.notice && <p className="text-xs text-muted-foreground">To {d.to}</p>}
            <DraftNotes draft={d} />
            <Button size="sm" variant="outline" className="self-start" onClick={() => onDraft(d)}>
              <Mail aria-hidden /> Edit &amp; Draft Email
            </Button>
          </li>
        ))}
        {events.map((e, i) => (
          <li key={`e${i}`} className="flex items-start gap-1.5">
            <CalendarPlus aria-hidden className="mt-0.5 size-4 shrink-0" />
            <span>
              <span className="font-medium">{e.title}</span>, {when(e)}
              {e.location ? ` at ${e.location}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
