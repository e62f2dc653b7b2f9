import { CalendarCheck, ChevronLeft, ChevronRight, Mail, Puzzle } from 'lucide-react';
import type { EmailItem, NudgeDraft } from '@haven/contracts/mail';
import { useRef, useState, type ReactNode } from 'react';

import { ComposeEmailDialog } from '@/components/actions/compose-email-dialog';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { useNudgeSent } from '../api/waiting';
import { useReplyQueue } from '../hooks/use-reply-queue';
import { CalendarPanel } from './calendar-panel';
import { EmailPanel } from './email-panel';
import { MorePanel } from './more-panel';
import { ReplyDialog } from './reply-dialog';

const PANELS = ['Email Digest', 'Calendar RSVPs', 'More Integrations'] as const;

/**
 * One panel of the card. Its lists scroll by whole rows with a faded edge (`scroll-rows`), never
 * ending on half a row.
 */
function Panel({
  icon,
  title,
  shown,
  children,
}: {
  icon: ReactNode;
  title: string;
  /** The panel in view; the others are inert (out of the tab order and the accessibility tree). */
  shown: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={title}
      inert={!shown}
      className="flex min-h-0 w-full shrink-0 snap-center flex-col gap-3 p-4 pb-0 [&_ul]:scroll-rows"
    >
      <h2 className="flex items-center gap-2 font-semibold">
        {icon}
        {title}
      </h2>
      {children}
    </section>
  );
}

const pagerButton =
  'flex size-11 items-center justify-center rounded-full text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-40';

/**
 * The card's pager: previous, one dot per panel, next. Each is a 44 px target (WCAG 2.2 target
 * size) around a small drawn dot, named for what it shows; the current dot has aria-current.
 */
function Pager({ current, onGo }: { current: number; onGo: (i: number) => void }) {
  const last = PANELS.length - 1;
  return (
    <nav aria-label="Assist cards" className="flex items-center justify-center">
      <button
        type="button"
        className={pagerButton}
        aria-label="Previous card"
        disabled={current === 0}
        onClick={() => onGo(current - 1)}
      >
        <ChevronLeft aria-hidden className="size-4" />
      </button>
      {PANELS.map((name, i) => (
        <button
          key={name}
          type="button"
          className={cn(pagerButton, 'group')}
          aria-label={`Show card ${i + 1} of ${PANELS.length}: ${name}`}
          aria-current={current === i ? 'true' : undefined}
          onClick={() => onGo(i)}
        >
          <span
            aria-hidden
            className={cn(
              'size-2.5 rounded-full transition-colors',
              current === i ? 'bg-accent' : 'bg-muted-foreground/40 group-hover:bg-muted-foreground/70',
            )}
          />
        </button>
      ))}
      <button
        type="button"
        className={pagerButton}
        aria-label="Next card"
        disabled={current === last}
        onClick={() => onGo(current + 1)}
      >
        <ChevronRight aria-hidden className="size-4" />
      </button>
    </nav>
  );
}

/**
 * The swipeable top card of the Assist screen: the e-mail digest, calendar invitations and more
 * integrations. Until mail and calendar are connected, each panel offers to connect them.
 */
export function DigestCard({ confirmEmails }: { confirmEmails: boolean }) {
  const [panel, setPanel] = useState(0);
  const [open, setOpen] = useState<EmailItem | null>(null);
  const [nudge, setNudge] = useState<NudgeDraft | null>(null);
  const nudgeSent = useNudgeSent();
  const queue = useReplyQueue();
  const track = useRef<HTMLDivElement>(null);
  const go = (i: number) =>
    track.current?.scrollTo({ left: i * track.current.clientWidth, behavior: 'smooth' });
  return (
    <Card className="flex min-h-0 flex-col overflow-hidden p-0">
      {queue.step ? (
        <ReplyDialog
          key={`queue-${queue.step.email.id}`}
          email={queue.step.email}
          queue={queue.step}
          onClose={queue.stop}
          onDone={(mode) => queue.next(mode === 'send')}
          confirm={confirmEmails}
        />
      ) : open ? (
        <ReplyDialog key={open.id} email={open} onClose={() => setOpen(null)} confirm={confirmEmails} />
      ) : null}
      <ComposeEmailDialog
        kind="action"
        open={nudge !== null}
        onOpenChange={(isOpen) => !isOpen && setNudge(null)}
        prefill={nudge ?? undefined}
        confirm={confirmEmails}
        onDone={(email, mode) => mode === 'send' && email.threadId && nudgeSent(email.threadId)}
      />
      <div
        ref={track}
        className="flex min-h-0 flex-1 snap-x snap-mandatory overflow-x-auto overscroll-x-contain [scrollbar-width:none]"
        onScroll={(e) => setPanel(Math.round(e.currentTarget.scrollLeft / e.currentTarget.clientWidth))}
      >
        <Panel icon={<Mail aria-hidden className="size-4" />} title={PANELS[0]} shown={panel === 0}>
          <EmailPanel onOpen={setOpen} onStartQueue={queue.start} onNudge={setNudge} />
        </Panel>
        <Panel icon={<CalendarCheck aria-hidden className="size-4" />} title={PANELS[1]} shown={panel === 1}>
          <CalendarPanel />
        </Panel>
        <Panel icon={<Puzzle aria-hidden className="size-4" />} title={PANELS[2]} shown={panel === 2}>
          <MorePanel />
        </Panel>
      </div>
      <Pager current={panel} onGo={go} />
    </Card>
  );
}
