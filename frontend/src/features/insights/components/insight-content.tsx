import type { Insight, InsightItem, Suggestion } from '@haven/contracts/insights';
import type { Thought } from '@haven/contracts/thoughts';
import { useQuery } from '@tanstack/react-query';
import { CalendarPlus, Mail, MoreHorizontal } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';

import { ComposeEmailDialog } from '@/components/actions/compose-email-dialog';
import { EventDialog, type EventPrefill } from '@/components/actions/event-dialog';
import { LazyMarkdown } from '@/components/markdown/lazy-markdown';
import { Button } from '@/components/ui/button';
import { actionFor, THEME_KIND_LABELS, themeKind, type ThemeKind } from '../lib/rules';
import { MoodChart } from './mood-chart';
import { ReferenceChip } from '@/components/thoughts/reference-chip';

/**
 * The query that resolves cited thought ids. Thoughts belong to another feature, so the app passes
 * its by-ids query options in (features do not import each other).
 */
export type CitedThoughtsQuery = (ids: readonly number[]) => {
  queryKey: readonly unknown[];
  queryFn: () => Promise<Thought[]>;
  enabled: boolean;
};

/** Whether the suggestion dialogs ask before acting (the user's privacy preferences). */
export interface ConfirmActions {
  emails: boolean;
  events: boolean;
}

/** Thought ids in the order the insight first cites them: chip #1 is the first cited. */
function citedIds(insight: Insight): number[] {
  const ids: number[] = [];
  const all = [
    ...insight.summaryReferences,
    ...insight.themes.flatMap((t) => t.references),
    ...insight.suggestions.flatMap((s) => s.references),
  ];
  for (const ref of all) if (typeof ref === 'number' && !ids.includes(ref)) ids.push(ref);
  return ids;
}

function Chips({
  refs,
  numbers,
  thoughts,
}: {
  refs: InsightItem['references'];
  numbers: Map<number, number>;
  thoughts: Map<number, Thought>;
}) {
  const ids = refs.filter((r): r is number => typeof r === 'number');
  if (ids.length === 0) return null;
  return (
    <span className="ml-1 inline-flex flex-wrap gap-1 align-middle">
      {ids.map((id) => (
        <ReferenceChip key={id} n={numbers.get(id)!} thought={thoughts.get(id)} />
      ))}
    </span>
  );
}

/**
 * An insight's text as Markdown (it quotes the user's thoughts, which may be Markdown: emphasis,
 * lists), its citation chips after it.
 */
function Rendered({ text, className, children }: { text: string; className: string; children: ReactNode }) {
  return (
    <div className={className}>
      <LazyMarkdown text={text} variant="preview" />
      {children}
    </div>
  );
}

function SuggestionAction({
  suggestion,
  onCalendar,
  onEmail,
}: {
  suggestion: Suggestion;
  onCalendar: () => void;
  onEmail: () => void;
}) {
  const [menu, setMenu] = useState(false);
  const action = actionFor(suggestion);
  if (action === 'calendar')
    return (
      <Button size="sm" variant="outline" onClick={onCalendar}>
        <CalendarPlus aria-hidden /> Add to Calendar
      </Button>
    );
  if (action === 'email')
    return (
      <Button size="sm" variant="outline" onClick={onEmail}>
        <Mail aria-hidden /> Draft Email
      </Button>
    );
  if (action === 'none')
    return (
      <Button size="sm" variant="outline" disabled>
        Take Action
      </Button>
    );
  return (
    <div className="relative">
      <Button
        size="sm"
        variant="outline"
        aria-expanded={menu}
        aria-haspopup="menu"
        onClick={() => setMenu((m) => !m)}
      >
        <MoreHorizontal aria-hidden /> Take Action
      </Button>
      {menu && (
        <div
          role="menu"
          className="absolute left-0 z-10 mt-1 flex w-44 flex-col rounded-lg border bg-card p-1 shadow-md"
        >
          <Button
            role="menuitem"
            size="sm"
            variant="ghost"
            className="justify-start"
            onClick={() => (setMenu(false), onCalendar())}
          >
            <CalendarPlus aria-hidden /> Add to Calendar
          </Button>
          <Button
            role="menuitem"
            size="sm"
            variant="ghost"
            className="justify-start"
            onClick={() => (setMenu(false), onEmail())}
          >
            <Mail aria-hidden /> Draft Email
          </Button>
        </div>
      )}
    </div>
  );
}

/** An insight: the mood chart (weeks, months), the summary with its chips, themes by kind, suggestions. */
export function InsightContent({
  insight,
  citedThoughts,
  confirm,
}: {
  insight: Insight;
  citedThoughts: CitedThoughtsQuery;
  confirm: ConfirmActions;
}) {
  const ids = useMemo(() => citedIds(insight), [insight]);
  const numbers = useMemo(() => new Map(ids.map((id, i) => [id, i + 1])), [ids]);
  const { data } = useQuery(citedThoughts(ids));
  const thoughts = useMemo(() => new Map((data ?? []).map((t) => [t.id, t])), [data]);
  const [event, setEvent] = useState<EventPrefill | null>(null);
  const [email, setEmail] = useState<{ to?: string; subject?: string; body?: string } | null>(null);

  const groups = new Map<ThemeKind, typeof insight.themes>();
  for (const theme of insight.themes) {
    const kind = themeKind(theme.title);
    groups.set(kind, [...(groups.get(kind) ?? []), theme]);
  }

  return (
    <div className="flex flex-col gap-5">
      {insight.mood && insight.mood.some((p) => p.score !== null) && <MoodChart mood={insight.mood} />}
      <section className="flex flex-col gap-2">
        <h2 className="text-sm font-semibold text-muted-foreground">Summary</h2>
        <Rendered text={insight.summary} className="text-[15px] leading-relaxed">
          <Chips refs={insight.summaryReferences} numbers={numbers} thoughts={thoughts} />
        </Rendered>
      </section>
      {insight.themes.length > 0 && (
        <section className="flex flex-col gap-3">
          <h2 className="text-sm font-semibold text-muted-foreground">Themes</h2>
          {[...groups.entries()].map(([kind, themes]) => (
            <div key={kind} className="flex flex-col gap-2">
              <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
                {THEME_KIND_LABELS[kind]}
              </p>
              {themes.map((theme) => (
                <div key={theme.title} className="rounded-lg border bg-muted/30 p-3">
                  <p className="font-medium">{theme.title}</p>
                  <Rendered text={theme.description} className="mt-1 text-sm text-muted-foreground">
                    <Chips refs={theme.references} numbers={numbers} thoughts={thoughts} />
                  </Rendered>
                </div>
              ))}
            </div>
          ))}
        </section>
      )}
      {insight.suggestions.length > 0 && (
        <section className="flex flex-col gap-3">
          <h2 className="text-sm font-semibold text-muted-foreground">Suggestions</h2>
          {insight.suggestions.map((s) => (
            <div key={s.title} className="flex flex-col gap-2 rounded-lg border p-3">
              <p className="font-medium">{s.title}</p>
              <Rendered text={s.description} className="text-sm text-muted-foreground">
                <Chips refs={s.references} numbers={numbers} thoughts={thoughts} />
              </Rendered>
              <div>
                <SuggestionAction
                  suggestion={s}
                  onCalendar={() =>
                    setEvent({
                      title: s.prefill?.calendar?.title ?? s.title,
                      description: s.description,
                      start: s.prefill?.calendar?.start,
                      end: s.prefill?.calendar?.end,
                    })
                  }
                  onEmail={() =>
                    setEmail({
                      to: s.prefill?.email?.to,
                      subject: s.prefill?.email?.subject ?? s.title,
                      body: s.prefill?.email?.body,
                    })
                  }
                />
              </div>
            </div>
          ))}
        </section>
      )}
      <EventDialog
        open={event !== null}
        onOpenChange={(open) => !open && setEvent(null)}
        prefill={event ?? undefined}
        confirm={confirm.events}
      />
      <ComposeEmailDialog
        kind="action"
        open={email !== null}
        onOpenChange={(open) => !open && setEmail(null)}
        prefill={email ?? undefined}
        confirm={confirm.emails}
      />
    </div>
  );
}
